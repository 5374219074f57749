#!/usr/bin/env bash
# spin-ratio.sh -- what the spinning and wavefront kernels cost (issue 28):
# each kernel's timing/functional ratio of host CPU time at one size
# (default paper), from `warpsim bench --table`, whose CPU times are the
# process's own (user + system), so other jobs on the machine change them
# little.  The policy is the one their paper runs: bows:gto for ht, atm and
# tsp (BOWS), gto for the rest.  --bin BIN (repeatable; default
# build/warpsim) measures each binary too, kernel by kernel, for a
# before/after table made under the same conditions.  Prints one Markdown
# table row per kernel and binary, and each binary's sums.
#
# At paper size this takes long on one core: nw1 and nw2 about 100 s each,
# ht about 70 s, tsp about 15 minutes (per binary).  `make bench` runs them
# at small size (the same behaviour: a few warps spin or wait) and nw,
# hashtable and cpds at paper size.
#
#   scripts/spin-ratio.sh [--size S] [--bin BIN]... [KERNEL ...]
set -euo pipefail
cd "$(dirname "$0")/.."
size=paper
bins=()
while [ $# -gt 0 ]; do
	case "$1" in
	--size) size=$2; shift 2 ;;
	--bin) bins+=("$2"); shift 2 ;;
	*) break ;;
	esac
done
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=(nw mu mp hashtable cpds atm ht nw2 nw1 tsp)
[ ${#bins[@]} -gt 0 ] || bins=(build/warpsim)
echo "| kernel | policy | binary | thread insts | cycles | timing CPU s | functional CPU s | timing/functional |"
echo "|---|---|---|---:|---:|---:|---:|---:|"
declare -A tsum fsum
for b in "${bins[@]}"; do tsum[$b]=0 fsum[$b]=0; done
# the binaries interleaved kernel by kernel, so that a drift of the machine's speed affects them alike
for k in "${kernels[@]}"; do
	case $k in ht | atm | tsp) sched=bows:gto ;; *) sched=gto ;; esac
	for b in "${bins[@]}"; do
		# bench --table runs the kernel at --size, then the --paper ones at paper size
		if [ "$size" = paper ]; then
			opts=(--size tiny --paper "$k")
		else
			opts=(--size "$size" --paper none)
		fi
		row=$("$b" bench --table --sched "$sched" "${opts[@]}" --idle-sms 0 --load-mb 0 "$k" |
			awk -v k="$k" -v s="$size" '$1 == k && $2 == s { print; exit }')
		if [ -z "$row" ]; then
			echo "| $k | $sched | $b | (failed) | | | | |"
			continue
		fi
		# columns: name size verified thread-insts cycles tim-cpu tim-wall tim-rate cyc-rate func-cpu func-rate ratio
		set -- $row
		echo "| $k | $sched | $b | $4 | $5 | $6 | ${10} | ${12} |"
		tsum[$b]=$(awk -v a="${tsum[$b]}" -v b="$6" 'BEGIN { print a + b }')
		fsum[$b]=$(awk -v a="${fsum[$b]}" -v b="${10}" 'BEGIN { print a + b }')
	done
done
for b in "${bins[@]}"; do
	echo "| **sum** | | $b | | | ${tsum[$b]} | ${fsum[$b]} | $(awk -v a="${tsum[$b]}" -v b="${fsum[$b]}" \
		'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }') |"
done
