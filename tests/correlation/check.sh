#!/usr/bin/env bash
# check.sh -- warpsim correlated with every configuration's GPGPU-Sim references
# (tests/correlation/DIR/, docs/correlation.md), each half of each suite on its own.
#
#   tests/correlation/check.sh [--out ROOT] [DIR...] [-- CORRELATE OPTIONS...]
#     DIR   configuration directories under tests/correlation (default: every one with a
#           correlate.conf, then `probes`)
#     --out ROOT  writes ROOT/DIR/HALF/correlation.{md,csv,svg} (default: no files)
#     `probes`: the correlation probes, programs of our own run under `warpsim cuda` (below);
#           of the CORRELATE OPTIONS they take --config and --set
#
# tests/correlation/DIR/correlate.conf, one setting a line ('#' starts a comment):
#   config FILE        warpsim's configuration (none: warpsim's defaults, the GTX480)
#   fitted B...        the half of the suite the model is (or will be) fitted on
#   held-out B...      the other half, reported on its own
#   max-cycle-error P  CI bound: every run's cycle error within +-P %
#   max-mape P         CI bound: each half's cycle MAPE at most P %
#   max-ratio-error R  CI bound: every GTO/LRR speedup within R of GPGPU-Sim's
#   known B,...        benchmarks whose miss is a documented difference (reported, not failed)
#   fitted.SETTING / held-out.SETTING   one of the last four for that half only (after the
#                      plain one, which sets both)
# The bounds are regression guards (today's errors plus a margin, said in DIR/README.md);
# the issue's targets are printed beside them, met or not: cycle MAPE <= 10 %, every run
# within +-15 %, every GTO/LRR speedup within 0.05; and the worst run's four counters that
# differ most (GPGPU-Sim -> warpsim).  References are DIR/BENCH_POLICY/ (a
# `size` file there names the size GPGPU-Sim ran).  Exit 1 when a bound is missed.
#
# tests/correlation/probes/NAME/probe.conf and any NAME/probe-*.conf (probes/README.md; each one
# run of the probe on the same references), one setting a line:
#   program FILE [ARG...]  the CUDA executable (relative to NAME/) and its arguments
#   config FILE / set KEY=VALUE   warpsim's configuration (none: the GTX480 defaults)
#   max-cycle-error P / max-ratio-error R   CI bounds on each run's cycles and on GTO/LRR
# The references are NAME/NAME_lrr/ and NAME_gto/ (gpgpusim-out.txt: gpu_tot_sim_cycle);
# a run must print the program's "PASSED".
set -euo pipefail
cd "$(dirname "$0")/../.."
out=
dirs=()
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--) shift; break ;;
	*) dirs+=("$1"); shift ;;
	esac
done
if [ ${#dirs[@]} -eq 0 ]; then
	for c in tests/correlation/*/correlate.conf; do dirs+=("$(basename "$(dirname "$c")")"); done
	dirs+=(probes)
fi

# check_probe NAME CONF: the probe's LRR and GTO runs under `warpsim cuda` against GPGPU-Sim's cycles
check_probe() {
	local pd=tests/correlation/probes/$1 conf=$2 prog=() opts=() key val p mc= mr= tmp rc
	while read -r key val; do
		case $key in
		''|'#'*) ;;
		program) read -r -a prog <<< "$val"; prog[0]=$pd/${prog[0]} ;;
		config) opts+=(--config "$val") ;;
		set) opts+=(--set "$val") ;;
		max-cycle-error) mc=$val ;;
		max-ratio-error) mr=$val ;;
		*) echo "check.sh: $conf: unknown setting '$key'" >&2; return 2 ;;
		esac
	done < "$conf"
	[ ${#prog[@]} -gt 0 ] || { echo "check.sh: $conf: no program" >&2; return 2; }
	opts+=(${probe_opts[@]+"${probe_opts[@]}"})
	tmp=$(mktemp -d)
	echo "== probes, $1 ($(basename "$conf")): ${prog[*]#$pd/}${opts[*]:+ ${opts[*]}}"
	for p in lrr gto; do
		rc=0
		build/warpsim cuda --quiet --sched $p ${opts[@]+"${opts[@]}"} --summary "$tmp/$p.json" -- "${prog[@]}" \
			> "$tmp/$p.out" 2>&1 || rc=$?
		if [ $rc -ne 0 ] || ! grep -q PASSED "$tmp/$p.out"; then
			echo "check.sh: probe $1 $p: the run failed (exit $rc) or did not print PASSED:" >&2
			tail -5 "$tmp/$p.out" >&2
			rm -rf "$tmp"
			return 1
		fi
		grep -o '"cycles": *[0-9]*' "$tmp/$p.json" | head -1 | tr -dc 0-9 > "$tmp/$p.w"
		awk '/^gpu_tot_sim_cycle/ { c = $3 } END { print c }' "$pd/$1_$p/gpgpusim-out.txt" > "$tmp/$p.g"
	done
	awk -v n="$1" -v conf="$conf" -v mc="$mc" -v mr="$mr" -v gl="$(cat "$tmp/lrr.g")" -v wl="$(cat "$tmp/lrr.w")" \
		-v gg="$(cat "$tmp/gto.g")" -v wg="$(cat "$tmp/gto.w")" 'BEGIN {
		el = 100 * (wl / gl - 1); eg = 100 * (wg / gg - 1); rg = gl / gg; rw = wl / wg; x = rw - rg
		printf "%s: cycles LRR %d vs GPGPU-Sim %d (%+.1f%%), GTO %d vs %d (%+.1f%%); GTO/LRR %.3f vs %.3f\n",
		       n, wl, gl, el, wg, gg, eg, rw, rg
		bad = 0
		if (mc != "" && (el > mc || -el > mc || eg > mc || -eg > mc)) {
			printf "check.sh: probe %s: a cycle error exceeds the bound +-%s%% of %s\n", n, mc, conf > "/dev/stderr"; bad = 1 }
		if (mr != "" && (x > mr || -x > mr)) {
			printf "check.sh: probe %s: GTO/LRR %.3f is more than %s from GPGPU-Sim'"'"'s %.3f\n", n, rw, mr, rg > "/dev/stderr"; bad = 1 }
		exit bad }' || { rm -rf "$tmp"; return 1; }
	rm -rf "$tmp"
}

# of the options after --, those `warpsim cuda` takes too, for the probes
probe_opts=()
for ((i = 1; i <= $#; i++)); do
	case ${!i} in
	--set|--config) j=$((i + 1)); probe_opts+=("${!i}" "${!j}"); i=$j ;;
	esac
done
fail=0
for d in "${dirs[@]}"; do
	if [ "$d" = probes ]; then
		for c in tests/correlation/probes/*/probe.conf tests/correlation/probes/*/probe-*.conf; do
			[ -f "$c" ] || continue
			check_probe "$(basename "$(dirname "$c")")" "$c" || fail=1
		done
		continue
	fi
	conf=tests/correlation/$d/correlate.conf
	[ -f "$conf" ] || { echo "check.sh: $conf: not found" >&2; exit 2; }
	cfg=() fitted= held=
	declare -A bound=()
	while read -r key val; do
		case $key in
		''|'#'*) ;;
		config) cfg=(--config "$val") ;;
		fitted) fitted=$val ;;
		held-out) held=$val ;;
		max-cycle-error|max-ratio-error|max-mape|known) bound[fitted.$key]=$val bound[held-out.$key]=$val ;;
		fitted.max-cycle-error|fitted.max-ratio-error|fitted.max-mape|fitted.known) bound[$key]=$val ;;
		held-out.max-cycle-error|held-out.max-ratio-error|held-out.max-mape|held-out.known) bound[$key]=$val ;;
		*) echo "check.sh: $conf: unknown setting '$key'" >&2; exit 2 ;;
		esac
	done < "$conf"
	for half in fitted held-out; do
		[ $half = fitted ] && list=$fitted || list=$held
		[ -n "$list" ] || continue
		mc=${bound[$half.max-cycle-error]:-} mr=${bound[$half.max-ratio-error]:-}
		mape=${bound[$half.max-mape]:-} known=${bound[$half.known]:-}
		refs=()
		for b in $list; do
			for p in lrr gto; do
				[ -d tests/correlation/$d/${b}_$p ] && refs+=(tests/correlation/$d/${b}_$p)
			done
		done
		echo "== $d, $half half ($list): ${#refs[@]} references"
		tmp=$(mktemp -d)
		odir=${out:+$out/$d/$half}
		[ -n "$odir" ] && mkdir -p "$odir"
		rc=0
		build/warpsim correlate "${refs[@]}" "${cfg[@]}" --quiet --out "${odir:-$tmp}" \
			${mc:+--max-cycle-error "$mc"} ${mr:+--max-ratio-error "$mr"} ${known:+--known "$known"} "$@" \
			> "$tmp/log" 2> "$tmp/err" || rc=$?
		cat "$tmp/err"
		# the issue's targets, from the CSV: cycle MAPE, worst run, worst GTO/LRR difference
		awk -F, -v d="$d" -v h="$half" '
			$3 == "cycles" { n++; e = $6 < 0 ? -$6 : $6; s += e; if (e > w) { w = e; wr = sprintf("%s_%s %+.1f%%", $1, $2, $6) }
			                 c[$1, $2, "g"] = $4; c[$1, $2, "w"] = $5; b[$1] = 1 }
			END {
				for (k in b) if (c[k, "lrr", "g"] && c[k, "gto", "g"]) {
					rg = c[k, "lrr", "g"] / c[k, "gto", "g"]; rw = c[k, "lrr", "w"] / c[k, "gto", "w"]
					x = rg - rw; x = x < 0 ? -x : x; if (rk == "" || x > rx) { rx = x; rk = sprintf("%s %.3f vs %.3f", k, rw, rg) }
				}
				met = n && s / n <= 10 && w <= 15 && rx <= 0.05
				printf "targets (cycle MAPE <= 10%%, every run within 15%%, GTO/LRR within 0.05): %s -- %s %s: %d runs, MAPE %.1f%%, worst %s, worst GTO/LRR %s\n",
				       met ? "met" : "NOT MET", d, h, n, n ? s / n : 0, wr, rk ? rk : "-"
				if (n) printf "%.4f\n", s / n > mapef
			}' mapef="$tmp/mape" "${odir:-$tmp}/correlation.csv"
		if [ -n "$mape" ] && awk -v m="$(cat "$tmp/mape")" -v b="$mape" 'BEGIN { exit !(m > b) }'; then
			echo "check.sh: $d $half: cycle MAPE $(cat "$tmp/mape")% exceeds the bound $mape% of $conf" >&2
			fail=1
		fi
		# the counters that differ most in the worst run (largest |cycle error|)
		awk -F, '$3 == "cycles" { e = $6 < 0 ? -$6 : $6; if (e > w) { w = e; k = $1 "," $2 } } END { print k }' \
			"${odir:-$tmp}/correlation.csv" > "$tmp/worst"
		awk -F, -v k="$(cat "$tmp/worst")" '$1 "," $2 == k && $3 != "cycles" && $3 != "ipc" && $6 != "" { e = $6 < 0 ? -$6 : $6; if (e > 0) print e "," $0 }' \
			"${odir:-$tmp}/correlation.csv" | sort -t, -k1,1 -gr | head -4 |
			awk -F, '{ l = l sprintf("%s%s %.4g -> %.4g (%+.1f%%)", NR > 1 ? "; " : "", $4, $5, $6, $7) } END { if (l != "") print "  worst run '"$(tr , _ < "$tmp/worst")"': largest differences: " l }'
		if [ $rc -ne 0 ]; then
			echo "check.sh: $d $half: a regression bound of $conf is missed (or a run failed):" >&2
			tail -5 "$tmp/err" >&2
			fail=1
		fi
		rm -rf "$tmp"
	done
done
exit $fail
