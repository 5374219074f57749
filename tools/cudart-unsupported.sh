#!/bin/sh
# cudart-unsupported.sh -- regenerate src/cudart/unsupported.def: every function
# NVIDIA's libcudart.so.13 exports that src/cudart/*.c do not define becomes
# U(name) (prints one line, returns cudaErrorNotSupported); a _ptsz/_ptds
# variant of a defined function that is not yet an alias is named on stderr:
# add CR_ALIAS(variant, function) beside the function.
# usage: tools/cudart-unsupported.sh [/usr/local/cuda/lib64/libcudart.so.13]   (after make)
set -eu
lib=${1:-/usr/local/cuda/lib64/libcudart.so.13}
objs=${BUILD:-build}/pic/src/cudart
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -D --defined-only "$lib" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort -u > "$tmp/all"
nm --defined-only "$objs"/*.o | awk '$2 == "T" { print $3 }' | sort -u > "$tmp/obj"
sed -n 's/^U(\([A-Za-z0-9_]*\).*/\1/p' src/cudart/unsupported.def | sort -u > "$tmp/stubs"
comm -23 "$tmp/obj" "$tmp/stubs" > "$tmp/impl"
{
	sed -n '1,/^ \*\//p' src/cudart/unsupported.def
	while read -r f; do
		grep -qx "$f" "$tmp/impl" && continue
		base=${f%_ptsz}
		base=${base%_ptds}
		if [ "$base" != "$f" ] && grep -qx "$base" "$tmp/impl"; then
			echo "$f: add CR_ALIAS($f, $base) beside $base" >&2
		else
			echo "U($f)"
		fi
	done < "$tmp/all"
} > "$tmp/def"
mv "$tmp/def" src/cudart/unsupported.def
echo "src/cudart/unsupported.def: $(grep -c '^U(' src/cudart/unsupported.def) unsupported"
