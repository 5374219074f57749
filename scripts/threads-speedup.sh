#!/usr/bin/env bash
# threads-speedup.sh -- deterministic parallel simulation: wall time of the
# BAWS paper-size runs of mm, sp and fwt (GTX480, GTO) with 1, 2, 4, 8 and
# 16 host threads (or the counts given), each run's statistics compared
# byte for byte with the single-thread run.  Prints a Markdown table
# (README.md, "Speed") and exits 1 if any statistic differs.
#
# Each time is the best of --repeat R runs (default 1).
#
# --config FILE runs another machine (e.g. configs/titanx-pascal.cfg, 28 SMs).
#
#   scripts/threads-speedup.sh [--size S] [--benches a,b] [--repeat R] [--config FILE] [N ...]
set -euo pipefail
cd "$(dirname "$0")/.."
size=paper
benches="mm sp fwt"
repeat=1
cfgargs=()
cfgname=gtx480
while [ $# -gt 0 ]; do
	case "$1" in
	--size) size=$2; shift 2 ;;
	--benches) benches=${2//,/ }; shift 2 ;;
	--repeat) repeat=$2; shift 2 ;;
	--config) cfgargs=(--config "$2"); cfgname=$(basename "$2" .cfg); shift 2 ;;
	*) break ;;
	esac
done
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1 2 4 8 16)
[ -x build/warpsim ] || make -j"$(nproc)" all >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf '| kernel (%s, %s, gto) |' "$size" "$cfgname"
for n in "${counts[@]}"; do printf ' %s thr |' "$n"; done
echo
printf '|---|'
for n in "${counts[@]}"; do printf -- '---:|'; done
echo
status=0
for b in $benches; do
	row="| $b |"
	base=""
	for n in "${counts[@]}"; do
		secs=""
		for ((r = 0; r < repeat; r++)); do
			t0=$(date +%s.%N)
			over=()
			[ "$n" -le "$(nproc)" ] || over=(--oversubscribe) # more threads than cores: measured as asked
			build/warpsim run "$b" --size "$size" "${cfgargs[@]}" --sched gto --threads "$n" "${over[@]}" --quiet --stats "$out/$b-$n.json" >/dev/null
			t1=$(date +%s.%N)
			secs=$(awk -v a="$t0" -v b="$t1" -v m="$secs" 'BEGIN { t = b - a; if (m != "" && m < t) t = m; printf "%.3f", t }')
		done
		# everything but the echoed thread count must match the 1-thread run
		sed 's/"threads": [0-9]*,//' "$out/$b-$n.json" > "$out/$b-$n.cmp"
		if [ -z "$base" ]; then
			base=$secs
			row="$row $(printf '%.2f s' "$secs") |"
		else
			if ! cmp -s "$out/$b-${counts[0]}.cmp" "$out/$b-$n.cmp"; then
				echo "MISMATCH: $b with $n threads differs from ${counts[0]} thread(s)" >&2
				status=1
			fi
			row="$row $(awk -v s="$secs" -v b="$base" 'BEGIN { printf "%.2f s (%.2fx)", s, b / s }') |"
		fi
	done
	echo "$row"
done
exit $status
