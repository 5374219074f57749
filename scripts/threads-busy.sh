#!/usr/bin/env bash
# threads-busy.sh -- do threads degrade gracefully when cores are shared?
# Wall time of one kernel (default mm, paper size, GTO) with 1 and 2 host
# threads (or the counts given), on an otherwise idle machine and with
# --busy B other processes (default 1) each keeping a core busy (`yes`,
# started and stopped here).  Each time is the median of --repeat R runs
# (default 5), the runs interleaved (idle and busy, every thread count, then
# again) so that a drift of the machine's speed affects all columns alike.
# Every run's statistics are compared byte for byte with the first thread
# count's idle run.  Prints a Markdown table (README.md, "Speed") with the
# load average seen before and after, and exits 1 if any statistic differs.
#
# The goal (issue 28): with one core kept busy, 2 threads no slower than 1;
# idle, 2 threads no slower than before.  --bin BIN (repeatable; default
# build/warpsim) times each binary, interleaved with the others, one row
# pair per binary: give an older build and the new one for a before/after
# table measured under the same load.  --quick: mm small, 3 runs.
#
#   scripts/threads-busy.sh [--bench B] [--size S] [--repeat R] [--busy B] [--bin BIN]... [--quick] [N ...]
set -euo pipefail
cd "$(dirname "$0")/.."
bench=mm
size=paper
repeat=5
busy=1
bins=()
while [ $# -gt 0 ]; do
	case "$1" in
	--bench) bench=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--repeat) repeat=$2; shift 2 ;;
	--busy) busy=$2; shift 2 ;;
	--bin) bins+=("$2"); shift 2 ;;
	--quick) size=small; repeat=3; shift ;;
	*) break ;;
	esac
done
counts=("$@")
[ ${#counts[@]} -gt 0 ] || counts=(1 2)
if [ ${#bins[@]} -eq 0 ]; then
	bins=(build/warpsim)
	[ -x build/warpsim ] || make -j"$(nproc)" all >/dev/null
fi
out=$(mktemp -d)
hogs=()
stop_hogs() {
	for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${hogs[@]}"; do wait "$p" 2>/dev/null || true; done
	hogs=()
}
trap 'stop_hogs; rm -rf "$out"' EXIT
trap 'exit 130' INT TERM

echo "host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
status=0
# one run of binary number B: its wall time appended to $out/B-COND-N.t, its statistics checked
run_one() {
	local b=$1 cond=$2 n=$3 t0 t1
	t0=$(date +%s.%N)
	local over=()
	[ "$n" -le "$(nproc)" ] || over=(--oversubscribe) # measure what was asked for
	"${bins[$b]}" run "$bench" --size "$size" --sched gto --threads "$n" "${over[@]}" --quiet --stats "$out/s.json" >/dev/null
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >>"$out/$b-$cond-$n.t"
	# everything but the echoed thread count must match the first run
	sed 's/"threads": [0-9]*,//' "$out/s.json" >"$out/s.cmp"
	if [ ! -e "$out/ref.cmp" ]; then
		mv "$out/s.cmp" "$out/ref.cmp"
	elif ! cmp -s "$out/ref.cmp" "$out/s.cmp"; then
		echo "MISMATCH: $bench with $n threads ($cond, ${bins[$b]}) differs from the first run" >&2
		status=1
	fi
}
for ((r = 0; r < repeat; r++)); do
	for b in "${!bins[@]}"; do
		for n in "${counts[@]}"; do run_one "$b" idle "$n"; done
	done
	for ((h = 0; h < busy; h++)); do
		yes >/dev/null &
		hogs+=($!)
	done
	for b in "${!bins[@]}"; do
		for n in "${counts[@]}"; do run_one "$b" busy "$n"; done
	done
	stop_hogs
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

median() { sort -n "$1" | awk '{ v[NR] = $1 } END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
range() { sort -n "$1" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%.2f-%.2f", lo, hi }'; }
printf '| %s %s, gto (median of %s) |' "$bench" "$size" "$repeat"
for n in "${counts[@]}"; do printf ' %s thr |' "$n"; done
echo
printf '|---|'
for n in "${counts[@]}"; do printf -- '---:|'; done
echo
for b in "${!bins[@]}"; do
	for cond in idle busy; do
		if [ "$cond" = idle ]; then label="idle"; else label="$busy core(s) kept busy"; fi
		[ ${#bins[@]} -eq 1 ] || label="$label, ${bins[$b]}"
		row="| $label |"
		base=$(median "$out/$b-$cond-${counts[0]}.t")
		for n in "${counts[@]}"; do
			f="$out/$b-$cond-$n.t"
			if [ "$n" = "${counts[0]}" ]; then
				row="$row $(median "$f") s ($(range "$f")) |"
			else
				row="$row $(median "$f") s ($(range "$f"); $(awk -v s="$(median "$f")" -v b="$base" 'BEGIN { printf "%.2fx", b / s }')) |"
			fi
		done
		echo "$row"
	done
done
exit $status
