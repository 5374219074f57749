#!/bin/sh
# cudart-unsupported.sh -- regenerate src/cudart/unsupported.def: every function
# NVIDIA's libcudart.so.13 exports that src/cudart/cudart.c does not define
# becomes U(name) (prints one line, returns cudaErrorNotSupported), and the
# _ptsz/_ptds variant of a defined function becomes A(variant, function).
# usage: tools/cudart-unsupported.sh [/usr/local/cuda/lib64/libcudart.so.13]   (after make)
set -eu
lib=${1:-/usr/local/cuda/lib64/libcudart.so.13}
obj=${BUILD:-build}/pic/src/cudart/cudart.o
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort -u > "$tmp/all"
nm --defined-only "$obj" | awk '$2 == "T" { print $3 }' | sort -u > "$tmp/obj"
sed -n 's/^[UA](\([A-Za-z0-9_]*\).*/\1/p' src/cudart/unsupported.def | sort -u > "$tmp/stubs"
comm -23 "$tmp/obj" "$tmp/stubs" > "$tmp/impl"
{
	sed -n '1,/^ \*\//p' src/cudart/unsupported.def
	while read -r f; do
		grep -qx "$f" "$tmp/impl" && continue
		base=${f%_ptsz}
		base=${base%_ptds}
		if [ "$base" != "$f" ] && grep -qx "$base" "$tmp/impl"; then
			echo "A($f, $base)"
		else
			echo "U($f)"
		fi
	done < "$tmp/all"
} > "$tmp/def"
mv "$tmp/def" src/cudart/unsupported.def
echo "src/cudart/unsupported.def: $(grep -c '^U(' src/cudart/unsupported.def) unsupported, $(grep -c '^A(' src/cudart/unsupported.def) aliases"
