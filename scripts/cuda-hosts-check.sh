#!/bin/sh
# cuda-hosts-check.sh -- run the CUDA host programs of `make cuda-hosts` (build/cuda-hosts/NAME) through
# `warpsim cuda` and compare each with `warpsim run NAME` on the same configuration (docs/cuda.md):
#   check   the program's own verification (PASSED, FAILED: why, or ERROR: exit status)
#   ptx     whether the PTX in its fat binary is the committed bench/NAME/kernel.ptx (nvcc embeds it
#           without comments and indentation, so both are compared without them): same or DIFFERS
#   cycles  simulated cycles under `warpsim cuda` and under `warpsim run`, and whether every statistic of
#           the run's summary is equal (stats equal) or only the cycles (cycles equal) or neither (DIFFER)
# usage: scripts/cuda-hosts-check.sh [--size S] [--bin WARPSIM] [--hosts DIR] [--require-equal]
#                                    [--config F] [--set K=V]... [NAME...]
#   NAME...          default: every program in DIR (build/cuda-hosts)
#   --require-equal  exit 1 also when a program's cycles differ from `warpsim run`'s
# Exit status: 0 when every program passed its check and has the committed PTX, 1 otherwise, 2 bad usage.
set -eu
size=tiny bin=build/warpsim hosts= require_equal=0
opts=
while [ $# -gt 0 ]; do
	case $1 in
	--size) size=$2; shift 2 ;;
	--bin) bin=$2; shift 2 ;;
	--hosts) hosts=$2; shift 2 ;;
	--require-equal) require_equal=1; shift ;;
	--config | --set) opts="$opts $1 $2"; shift 2 ;;
	-h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "cuda-hosts-check.sh: unknown option $1 (--help)" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ -n "$hosts" ] || hosts=$(dirname "$bin")/cuda-hosts
[ -x "$bin" ] || { echo "cuda-hosts-check.sh: $bin: not built (make)" >&2; exit 2; }
if [ $# -eq 0 ]; then
	set -- $(cd "$hosts" 2>/dev/null && for f in *; do [ -f "$f" ] && [ -x "$f" ] && echo "$f"; done)
	[ $# -gt 0 ] || { echo "cuda-hosts-check.sh: no programs in $hosts (make cuda-hosts)" >&2; exit 2; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# PTX text without comments, indentation and blank lines
ptx_norm() { sed 's#//.*##; s/[[:space:]][[:space:]]*/ /g; s/^ //; s/ $//' | grep -v '^$' || true; }
# the PTX in the program's fat binary (nvcc --no-compress: one NUL-terminated text from .version on)
ptx_of() {
	objcopy -O binary --only-section=.nv_fatbin "$1" "$tmp/fatbin" 2>/dev/null || return 0
	tr '\0' '\n' < "$tmp/fatbin" | sed -n '/^\.version /,$p' | ptx_norm
}
# the first "cycles": N of a stats file, and its "stats" object
cycles_of() { grep -o '"cycles": [0-9]*' "$1" 2>/dev/null | head -1 | sed 's/.*: //'; }
stats_of() { tr ',' '\n' < "$1" | sed -n '/"stats"/,/}/p'; }

printf '%-14s %-8s %-8s %12s %12s  %s\n' benchmark check ptx "warpsim cuda" "warpsim run" "equal"
fails=0 unequal=0 n=0
for name in "$@"; do
	n=$((n + 1))
	prog=$hosts/$name
	if [ ! -x "$prog" ]; then
		printf '%-14s %s\n' "$name" "MISSING: $prog is not built (make cuda-hosts)"
		fails=$((fails + 1))
		continue
	fi
	ptx=same
	ptx_of "$prog" > "$tmp/a"
	ptx_norm < "bench/$name/kernel.ptx" > "$tmp/b" 2>/dev/null || true
	[ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b" || ptx=DIFFERS
	rm -f "$tmp/cuda.json" "$tmp/run.json"
	# shellcheck disable=SC2086
	if "$bin" cuda --quiet $opts --summary "$tmp/cuda.json" -- "$prog" "$size" > "$tmp/out" 2> "$tmp/err"; then
		check=PASSED
	else
		st=$?
		check=$(sed -n 's/^verification: \(FAILED\).*/\1/p' "$tmp/out")
		[ -n "$check" ] || check="ERROR($st)"
	fi
	# shellcheck disable=SC2086
	"$bin" run "$name" --size "$size" --quiet $opts --stats "$tmp/run.json" > /dev/null 2>&1 || true
	c1=$(cycles_of "$tmp/cuda.json") c2=$(cycles_of "$tmp/run.json")
	if [ -n "$c1" ] && [ "$c1" = "$c2" ]; then
		stats_of "$tmp/cuda.json" > "$tmp/s1"
		stats_of "$tmp/run.json" > "$tmp/s2"
		cmp -s "$tmp/s1" "$tmp/s2" && eq="stats equal" || eq="cycles equal"
	else
		eq=DIFFER
		unequal=$((unequal + 1))
	fi
	printf '%-14s %-8s %-8s %12s %12s  %s\n' "$name" "$check" "$ptx" "${c1:--}" "${c2:--}" "$eq"
	if [ "$check" != PASSED ] || [ "$ptx" != same ]; then
		fails=$((fails + 1))
		sed -n 's/^verification: FAILED: /    /p' "$tmp/out"
		grep -v '^$' "$tmp/err" | head -3 | sed 's/^/    /'
	fi
done
echo "$n programs: $((n - fails)) passed with the committed PTX, $fails not; $((n - unequal)) with the cycles of warpsim run, $unequal not"
[ "$fails" -eq 0 ] && { [ "$require_equal" -eq 0 ] || [ "$unequal" -eq 0 ]; }
