#!/usr/bin/env bash
# suites.sh -- the public GPU benchmark suites, unmodified, through `warpsim cuda`.
#
# Reads a manifest (default scripts/suites.manifest: per suite a URL and a
# pinned commit; per program its build commands, input generators, run
# arguments per input size and how to read its own verification output),
# clones each selected suite at its pinned commit (from the manifest's URL or
# a local clone given with --src), builds the programs with
# `nvcc -cudart shared`, generates their inputs, runs each through
# `warpsim cuda` under the chosen policy and configuration, reads the
# program's own check, and appends one row per run to ONE CSV:
#
#   suite,program,size,args,sched,fetch,config,status,verification,cycles,ipc,
#   warp_insts,thread_insts,launches,host_s,reason
#
# status: ok | source-failed | build-failed | input-failed | timeout |
#         run-failed | launch-error | no-launches | check-failed
# verification: pass | fail | none (the program has no check of its own) |
#         empty (the run did not get that far)
#
# A row already in the CSV (same suite, program, size, args, sched, fetch,
# config) is skipped, so an interrupted run resumes where it stopped;
# --retry reruns the rows whose status is not ok.  Each run's log, its
# per-launch statistics (TAG.jsonl) and its summary (TAG.summary.json, every
# counter over all launches, written when the program exits) are kept in
# WORK/logs (scripts/workloads.py reads them).  Builds and inputs are
# made once per clone (WORK/src/SUITE) and reused by later runs.
# docs/cuda.md ("Public benchmark suites") describes the manifest format.
#
# Exit status: 0 every selected run ok, 1 some run not ok, 2 usage or
# manifest error (nothing run).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	cat <<'EOF'
usage: scripts/suites.sh [OPTIONS]
  --manifest FILE      suites and programs (default scripts/suites.manifest)
  --src SUITE=DIR|URL  clone SUITE from this local clone or URL instead of the manifest's URL (repeatable)
  --suite NAME         only this suite (repeatable, or a comma list)
  --program NAME       only this program, NAME or SUITE/NAME (repeatable, or a comma list)
  --size SIZE          input size: paper (default) or small (where the manifest has one; else paper's)
  --sched POLICY       warp scheduler for warpsim cuda (default: the configuration's)
  --fetch POLICY       fetch policy for warpsim cuda (default: the configuration's)
  --config FILE        warpsim configuration file (default: warpsim's built-in GTX480)
  --set KEY=VALUE      one parameter, after --config (repeatable)
  --work DIR           clones, builds, logs (default build/suites)
  --csv FILE           the results (default WORK/results.csv); rows are appended
  --timeout SEC        limit per program run, 0 = none (default 7200)
  --retry              rerun the rows of the CSV whose status is not ok
  --list               list the manifest's suites and programs and exit
  --nvcc PATH          the CUDA compiler the build commands call as $NVCC (default: $NVCC or nvcc)
  --warpsim PATH       the warpsim executable (default: $WARPSIM_BIN or build/warpsim)
EOF
}

die() {
	echo "suites.sh: error: $*" >&2
	exit 2
}

manifest=$ROOT/scripts/suites.manifest
work=$ROOT/build/suites
csv=""
size=paper
sched="" fetch="" config="" timeout_s=7200 retry=0 list=0
sets=() only_suites=() only_progs=()
declare -A src_override=()
nvcc=${NVCC:-nvcc}
warpsim=${WARPSIM_BIN:-$ROOT/build/warpsim}

need_arg() { [ $# -ge 2 ] || die "$1 needs a value (see --help)"; }
while [ $# -gt 0 ]; do
	case $1 in
	--manifest) need_arg "$@"; manifest=$2; shift ;;
	--src)
		need_arg "$@"
		case $2 in *=?*) ;; *) die "--src wants SUITE=DIR-or-URL, not '$2'" ;; esac
		src_override[${2%%=*}]=${2#*=}
		shift
		;;
	--suite) need_arg "$@"; IFS=, read -ra a <<<"$2"; only_suites+=("${a[@]}"); shift ;;
	--program) need_arg "$@"; IFS=, read -ra a <<<"$2"; only_progs+=("${a[@]}"); shift ;;
	--size) need_arg "$@"; size=$2; shift ;;
	--sched) need_arg "$@"; sched=$2; shift ;;
	--fetch) need_arg "$@"; fetch=$2; shift ;;
	--config) need_arg "$@"; config=$2; shift ;;
	--set) need_arg "$@"; sets+=("$2"); shift ;;
	--work) need_arg "$@"; work=$2; shift ;;
	--csv) need_arg "$@"; csv=$2; shift ;;
	--timeout) need_arg "$@"; timeout_s=$2; shift ;;
	--nvcc) need_arg "$@"; nvcc=$2; shift ;;
	--warpsim) need_arg "$@"; warpsim=$2; shift ;;
	--retry) retry=1 ;;
	--list) list=1 ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; die "unknown option '$1'" ;;
	esac
	shift
done

case $size in paper | small) ;; *) die "--size must be paper or small, not '$size'" ;; esac
case $timeout_s in '' | *[!0-9]*) die "--timeout must be a whole number of seconds, not '$timeout_s'" ;; esac
[ -f "$manifest" ] || die "manifest $manifest: no such file"
command -v python3 >/dev/null || die "python3 is needed (CSV and statistics)"
command -v git >/dev/null || die "git is needed (cloning the suites)"
abspath() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
work=$(abspath "$work")
[ -n "$csv" ] || csv=$work/results.csv
csv=$(abspath "$csv")
[ -z "$config" ] || { [ -f "$config" ] || die "--config $config: no such file"; config=$(abspath "$config"); }
case $warpsim in */*) warpsim=$(abspath "$warpsim") ;; esac
[ $list = 1 ] || [ -x "$warpsim" ] || die "warpsim executable $warpsim not found: run 'make' first (or give --warpsim)"

# ---- the manifest ----------------------------------------------------------
# Parsed whole before anything runs; an error names file:line.
suites=()                      # suite names in order
declare -A s_url=() s_commit=() s_line=() s_paths=()
progs=()                       # "suite/program" in order
declare -A p_dir=() p_build=() p_input=() p_run=() p_pass=() p_fail=() p_exit=() p_verify=() p_papers=() p_note=()
cur_suite="" cur_prog="" ln=0
merr() { die "$manifest:$ln: $*"; }
while IFS= read -r line || [ -n "$line" ]; do
	ln=$((ln + 1))
	line=${line%$'\r'}
	# strip leading blanks; skip blank lines and comments
	line=${line#"${line%%[![:space:]]*}"}
	[ -z "$line" ] || [ "${line:0:1}" = "#" ] && continue
	key=${line%%[[:space:]]*}
	val=""
	[ "$key" = "$line" ] || val=${line#"$key"}
	val=${val#"${val%%[![:space:]]*}"}
	case $key in
	suite)
		[[ $val =~ ^[A-Za-z0-9_.-]+$ ]] || merr "suite name '$val': letters, digits, '_', '.', '-' only"
		[ -z "${s_line[$val]:-}" ] || merr "suite $val already defined at line ${s_line[$val]}"
		cur_suite=$val cur_prog=""
		suites+=("$val")
		s_line[$val]=$ln
		;;
	url | commit | paths)
		[ -n "$cur_suite" ] && [ -z "$cur_prog" ] || merr "'$key' belongs right after a 'suite' line"
		[ -n "$val" ] || merr "'$key' needs a value"
		if [ "$key" = url ]; then s_url[$cur_suite]=$val; elif [ "$key" = paths ]; then s_paths[$cur_suite]+="$val "; else
			[[ $val =~ ^[0-9a-f]{40}$ ]] || merr "commit '$val': a full 40-digit hexadecimal commit id is needed (the pin)"
			s_commit[$cur_suite]=$val
		fi
		;;
	program)
		[ -n "$cur_suite" ] || merr "'program' before any 'suite'"
		[[ $val =~ ^[A-Za-z0-9_.+-]+$ ]] || merr "program name '$val': letters, digits, '_', '.', '+', '-' only"
		cur_prog=$cur_suite/$val
		[ -z "${p_dir[$cur_prog]+x}" ] || merr "program $val defined twice in suite $cur_suite"
		progs+=("$cur_prog")
		p_dir[$cur_prog]=.
		;;
	dir | build | input | run | pass | fail | check | verify | papers | note)
		[ -n "$cur_prog" ] || merr "'$key' outside a 'program'"
		[ -n "$val" ] || merr "'$key' needs a value"
		case $key in
		dir) p_dir[$cur_prog]=$val ;;
		build) p_build[$cur_prog]+="$val"$'\n' ;;
		input | run)
			sz=${val%%[[:space:]]*}
			rest=${val#"$sz"}
			rest=${rest#"${rest%%[![:space:]]*}"}
			case $sz in paper | small | all) ;; *) merr "'$key' wants a size first (paper, small or all), not '$sz'" ;; esac
			[ -n "$rest" ] || merr "'$key $sz' needs a command"
			if [ "$key" = run ]; then
				[ "$sz" != all ] || merr "'run' is per size: paper or small"
				[ -z "${p_run[$cur_prog/$sz]:-}" ] || merr "a second 'run $sz' for ${cur_prog#*/}"
				p_run[$cur_prog/$sz]=$rest
			else
				p_input[$cur_prog/$sz]+="$rest"$'\n'
			fi
			;;
		pass) p_pass[$cur_prog]=$val ;;
		check) [ "$val" = exit ] || merr "'check' takes one value, exit (its exit status is its check)"; p_exit[$cur_prog]=1 ;;
		fail) p_fail[$cur_prog]=$val ;;
		verify) p_verify[$cur_prog]+="$val"$'\n' ;;
		papers) p_papers[$cur_prog]=$val ;;
		note) p_note[$cur_prog]+="$val " ;;
		esac
		;;
	*) merr "unknown key '$key' (suite url commit paths program dir build input run pass fail check verify papers note)" ;;
	esac
done <"$manifest"
for s in "${suites[@]}"; do
	ln=${s_line[$s]}
	[ -n "${s_url[$s]:-}" ] || merr "suite $s has no 'url'"
	[ -n "${s_commit[$s]:-}" ] || merr "suite $s has no 'commit'"
done
for p in "${progs[@]}"; do
	[ -n "${p_run[$p/paper]:-}" ] || die "$manifest: program $p has no 'run paper' line"
	for re in "${p_pass[$p]:-}" "${p_fail[$p]:-}"; do
		[ -z "$re" ] || { echo | grep -Eq -- "$re"; [ $? -le 1 ]; } || die "$manifest: program $p: bad regular expression '$re'"
	done
done
for s in "${only_suites[@]}"; do [ -n "${s_line[$s]:-}" ] || die "--suite $s: not in $manifest (suites: ${suites[*]})"; done
for s in "${!src_override[@]}"; do [ -n "${s_line[$s]:-}" ] || die "--src $s=...: no suite $s in $manifest"; done
for q in "${only_progs[@]}"; do
	found=0
	for p in "${progs[@]}"; do [ "$q" = "$p" ] || [ "$q" = "${p#*/}" ] && found=1; done
	[ $found = 1 ] || die "--program $q: not in $manifest"
done

selected() { # selected SUITE/PROGRAM
	local p=$1 q ok=1
	if [ ${#only_suites[@]} -gt 0 ]; then
		ok=0
		for q in "${only_suites[@]}"; do [ "$q" = "${p%%/*}" ] && ok=1; done
	fi
	[ $ok = 1 ] || return 1
	[ ${#only_progs[@]} -gt 0 ] || return 0
	for q in "${only_progs[@]}"; do [ "$q" = "$p" ] || [ "$q" = "${p#*/}" ] && return 0; done
	return 1
}

if [ $list = 1 ]; then
	for s in "${suites[@]}"; do
		echo "$s  ${s_url[$s]} @ ${s_commit[$s]}"
		for p in "${progs[@]}"; do
			[ "${p%%/*}" = "$s" ] || continue
			printf '  %-16s %-24s %s\n' "${p#*/}" "${p_papers[$p]:-}" "${p_run[$p/$size]:-${p_run[$p/paper]}}"
		done
	done
	exit 0
fi

# ---- the CSV -------------------------------------------------------------
mkdir -p "$work/src" "$work/logs" "$(dirname "$csv")" || die "cannot create $work"
header="suite,program,size,args,sched,fetch,config,status,verification,cycles,ipc,warp_insts,thread_insts,launches,host_s,reason"
if [ ! -s "$csv" ]; then
	echo "$header" >"$csv" || die "cannot write $csv"
elif [ "$(head -n1 "$csv")" != "$header" ]; then
	die "$csv is not a suites.sh results file (its first line is not the header): give another --csv"
fi
policy_sched=${sched:-default}
policy_fetch=${fetch:-default}
config_name=${config:+$(basename "$config")}
config_name=${config_name:-default}
for kv in "${sets[@]}"; do config_name+=";$kv"; done
# the selected runs: suite, program, input size (paper where a program has no
# run line for the size asked for), policy and configuration
runs=()
for p in "${progs[@]}"; do
	selected "$p" || continue
	rsize=$size
	[ -n "${p_run[$p/$size]:-}" ] || rsize=paper
	runs+=("${p%%/*}"$'\x1f'"${p#*/}"$'\x1f'"$rsize"$'\x1f'"$policy_sched"$'\x1f'"$policy_fetch"$'\x1f'"$config_name")
done
# The keys (first 7 fields) of the rows already there, read once; with
# --retry the rows of the selected runs whose status is not ok are removed
# first, so that this run replaces them.
declare -A done_keys=()
while IFS= read -r -d '' k; do done_keys[$k]=1; done < <(printf '%s\n' "${runs[@]}" | python3 -S -c '
import csv, os, sys
path, retry = sys.argv[1], sys.argv[2] == "1"
runs = set(sys.stdin.read().split("\n"))
rows = list(csv.reader(open(path, newline="")))
def again(r):  # a row of this run, not ok
    return len(r) > 7 and r[7] != "ok" and "\x1f".join(r[:3] + r[4:7]) in runs
if retry:
    keep = [rows[0]] + [r for r in rows[1:] if not again(r)]
    if len(keep) != len(rows):
        with open(path + ".tmp", "w", newline="") as f:
            csv.writer(f, lineterminator="\n").writerows(keep)
        os.replace(path + ".tmp", path)
        rows = keep
for r in rows[1:]:
    sys.stdout.write("\x1f".join(r[:7]) + "\0")
' "$csv" "$retry")
csv_field() { # one CSV field, quoted where it must be (RFC 4180)
	case $1 in
	*[,\"$'\n']*) local q=${1//\"/\"\"}; printf '"%s"' "$q" ;;
	*) printf '%s' "$1" ;;
	esac
}
csv_add() { # csv_add FIELD...: one row appended
	local f line="" sep=""
	for f in "$@"; do
		line+=$sep$(csv_field "$f")
		sep=,
	done
	printf '%s\n' "$line" >>"$csv"
}

wopts=(--quiet)
[ -z "$config" ] || wopts+=(--config "$config")
for kv in "${sets[@]}"; do wopts+=(--set "$kv"); done
[ -z "$sched" ] || wopts+=(--sched "$sched")
[ -z "$fetch" ] || wopts+=(--fetch "$fetch")
# check warpsim's options once, before any build: a bad policy or parameter
# is a usage error, not 1000 failed rows
"$warpsim" cuda "${wopts[@]}" -- true 2>"$work/logs/options.err" >/dev/null
[ $? -ne 2 ] || die "warpsim cuda refused the options: $(head -n1 "$work/logs/options.err")"

# ---- sources ---------------------------------------------------------------
declare -A s_state=() # suite -> "" (ready) or the reason it is not
prepare_suite() {
	local s=$1 src=${src_override[$1]:-${s_url[$1]}} dir=$work/src/$1 c=${s_commit[$1]} out
	[ -z "${s_state[$s]+x}" ] || return 0
	s_state[$s]=""
	if [ -d "$dir/.git" ] && [ "$(git -C "$dir" rev-parse HEAD 2>/dev/null)" = "$c" ]; then
		return 0
	fi
	case $src in /* | ./* | ../*) [ -d "$src" ] || { s_state[$s]="source $src: no such directory"; return 0; } ;; esac
	echo "suites.sh: $s: cloning $src at $c" >&2
	if [ ! -d "$dir/.git" ]; then
		rm -rf "$dir"
		if ! out=$(git clone -q --no-checkout "$src" "$dir" 2>&1); then
			s_state[$s]="git clone $src failed: $(echo "$out" | tail -n1)"
			return 0
		fi
	fi
	if ! git -C "$dir" cat-file -e "$c^{commit}" 2>/dev/null; then
		git -C "$dir" fetch -q "$src" "$c" >/dev/null 2>&1 || git -C "$dir" fetch -q "$src" >/dev/null 2>&1
	fi
	if ! git -C "$dir" cat-file -e "$c^{commit}" 2>/dev/null; then
		s_state[$s]="the pinned commit $c is not in $src"
		return 0
	fi
	if [ -n "${s_paths[$s]:-}" ]; then # a sparse checkout of these paths only
		local sp
		sp=$(cd "$dir" && realpath -m "$(git rev-parse --git-path info/sparse-checkout)")
		git -C "$dir" config core.sparseCheckout true && mkdir -p "$(dirname "$sp")" &&
			printf '/%s/\n' ${s_paths[$s]} >"$sp" ||
			{ s_state[$s]="cannot set up the sparse checkout of ${s_paths[$s]}"; return 0; }
	fi
	if ! out=$(git -C "$dir" -c advice.detachedHead=false checkout -q --force "$c" 2>&1); then
		s_state[$s]="git checkout $c failed: $(echo "$out" | tail -n1)"
	fi
}

# step NAME DIR LOG COMMANDS: run each line of COMMANDS in DIR (bash, with
# NVCC, SUITE_ROOT and WARPSIM_ROOT set), output appended to LOG; prints the failing
# command's reason and returns 1 on the first failure
step() {
	local name=$1 dir=$2 log=$3 cmds=$4 c rc n0
	while IFS= read -r c; do
		[ -n "$c" ] || continue
		echo "\$ $c" >>"$log"
		n0=$(wc -l <"$log")
		(cd "$dir" && NVCC=$nvcc SUITE_ROOT=$srcroot WARPSIM_ROOT=$ROOT bash -c "$c") >>"$log" 2>&1
		rc=$?
		if [ $rc -ne 0 ]; then
			local last out
			# of this command's output, the first line that says "error" (a compiler's
			# first complaint), else the last line
			out=$(tail -n +$((n0 + 1)) "$log")
			last=$(grep -m1 -i 'error' <<<"$out" | cut -c1-200)
			[ -n "$last" ] || last=$(grep -v '^[[:space:]]*$' <<<"$out" | tail -n1 | cut -c1-200)
			echo "$name command '$c' exited $rc${last:+: $last}"
			return 1
		fi
	done <<<"$cmds"
	return 0
}

# ---- the runs ----------------------------------------------------------------
nrun=0 nbad=0 nskip=0
for p in "${progs[@]}"; do
	selected "$p" || continue
	s=${p%%/*} name=${p#*/}
	args=${p_run[$p/$size]:-${p_run[$p/paper]}}
	rsize=$size
	[ -n "${p_run[$p/$size]:-}" ] || rsize=paper
	key=("$s" "$name" "$rsize" "$args" "$policy_sched" "$policy_fetch" "$config_name")
	if [ -n "${done_keys[$(IFS=$'\x1f'; echo "${key[*]}")]:-}" ]; then
		nskip=$((nskip + 1))
		continue
	fi
	nrun=$((nrun + 1))
	status="" verif="" reason="" cycles="" ipc="" wi="" ti="" launches="" host=""
	srcroot=$work/src/$s
	pdir=$srcroot/${p_dir[$p]}
	tag=$(printf '%s' "$s.$name.$rsize.$policy_sched.$policy_fetch.$config_name" | tr -c 'A-Za-z0-9_.+=-' '_')
	log=$work/logs/$tag.log
	stats=$work/logs/$tag.jsonl
	summary=$work/logs/$tag.summary.json
	: >"$log"
	prepare_suite "$s"
	if [ -n "${s_state[$s]}" ]; then
		status=source-failed reason=${s_state[$s]}
	elif [ ! -d "$pdir" ]; then
		status=source-failed reason="no directory ${p_dir[$p]} in $s at ${s_commit[$s]}"
	fi
	# build once per clone: a stamp records success; a failure is retried next time
	stamp=$srcroot/.warpsim-suites/built.$name
	if [ -z "$status" ] && [ ! -e "$stamp" ]; then
		echo "suites.sh: $p: building" >&2
		if reason=$(step build "$pdir" "$log" "${p_build[$p]:-}"); then
			mkdir -p "$(dirname "$stamp")" && : >"$stamp"
		else
			status=build-failed
		fi
	fi
	istamp=$srcroot/.warpsim-suites/input.$name.$rsize
	if [ -z "$status" ] && [ ! -e "$istamp" ]; then
		cmds=${p_input[$p/all]:-}${p_input[$p/$rsize]:-}
		if [ -n "$cmds" ]; then echo "suites.sh: $p: generating the $rsize input" >&2; fi
		if reason=$(step input "$pdir" "$log" "$cmds"); then
			: >"$istamp"
		else
			status=input-failed
		fi
	fi
	if [ -z "$status" ]; then
		echo "suites.sh: $p: running $args" >&2
		rm -f "$stats" "$summary"
		echo "\$ warpsim cuda ${wopts[*]} --stats $stats --summary $summary -- $args" >>"$log"
		t0=${EPOCHREALTIME/,/.}
		tcmd=()
		[ "$timeout_s" = 0 ] || tcmd=(timeout -s TERM -k 30 "$timeout_s")
		(cd "$pdir" && eval "exec \"\${tcmd[@]}\" \"\$warpsim\" cuda \"\${wopts[@]}\" --stats \"\$stats\" --summary \"\$summary\" -- $args") \
			>>"$log" 2>&1 </dev/null
		rc=$?
		t1=${EPOCHREALTIME/,/.}
		read -r launches cycles wi ti ipc host lerr < <(python3 -S - "$stats" "$t0" "$t1" <<'PY'
import json, sys
n = cyc = wi = ti = 0
err = ""
try:
    for line in open(sys.argv[1]):
        d = json.loads(line)
        n += 1
        cyc += d.get("cycles") or 0
        wi += d.get("warp_insts") or 0
        ti += d.get("thread_insts") or 0
        if d.get("error") and not err:
            err = "launch %d (%s) failed: %s" % (d["launch"], d["kernel"], d["error"])
except FileNotFoundError:
    pass
host = "%.2f" % (float(sys.argv[3]) - float(sys.argv[2]))
print(n, cyc, wi, ti, "%.4f" % (ti / cyc) if cyc else "0", host, err.replace(" ", "\x01") or "-")
PY
		)
		lerr=${lerr//$'\x01'/ }
		[ "$lerr" != - ] || lerr=""
		cudart_msg=$(grep -m1 -E '^warpsim (cuda|cudart): (error|warning)|is not supported by warpsim|^warpsim: .*(fault|deadlock)' "$log" | cut -c1-200)
		last=${cudart_msg:-$(grep -v '^\$ ' "$log" | grep -v '^[[:space:]]*$' | tail -n1 | cut -c1-200)}
		# the program's own check: its output (pass / fail patterns) or its exit status
		prog_out=$(grep -v '^\$ warpsim cuda ' "$log")
		verif="" failed=""
		if [ -n "${p_fail[$p]:-}" ] && m=$(grep -m1 -E -- "${p_fail[$p]}" <<<"$prog_out"); then
			failed="its check failed: $(echo "$m" | cut -c1-200)"
		elif [ -n "${p_exit[$p]:-}" ] && [ $rc -ge 1 ] && [ $rc -le 123 ]; then
			failed="its check failed: exit status $rc${last:+: $last}"
		elif [ -n "${p_verify[$p]:-}" ] && [ $rc = 0 ] && [ -z "$lerr" ] &&
			! vreason=$(step verify "$pdir" "$log" "${p_verify[$p]}"); then
			failed="its check failed: $vreason"
		fi
		if [ -n "$failed" ]; then
			verif=fail
		elif [ -n "${p_pass[$p]:-}" ]; then
			if grep -q -E -- "${p_pass[$p]}" <<<"$prog_out"; then verif=pass; else verif=fail; fi
		elif [ -n "${p_exit[$p]:-}" ]; then
			[ $rc != 0 ] || verif=pass
		elif [ -n "${p_verify[$p]:-}" ]; then
			[ $rc != 0 ] || [ -n "$lerr" ] || verif=pass
		else
			verif=none
		fi
		# the row's status: the first of these that applies
		if [ "$timeout_s" != 0 ] && { [ $rc = 124 ] || [ $rc = 137 ]; }; then
			status=timeout reason="no exit after ${timeout_s} s" verif=""
		elif [ -n "$lerr" ]; then
			status=launch-error reason=$lerr${cudart_msg:+: $cudart_msg}
		elif [ -n "$failed" ]; then
			status=check-failed reason=$failed
		elif [ $rc -ne 0 ]; then
			status=run-failed verif=""
			if [ $rc -gt 128 ]; then reason="killed by signal $((rc - 128))"; else reason="exit status $rc"; fi
			reason+="${last:+: $last}"
		elif [ "$launches" = 0 ]; then
			status=no-launches reason="no kernel ran on warpsim${cudart_msg:+: $cudart_msg}"
		elif [ "$verif" = fail ]; then
			status=check-failed reason="no line matching '${p_pass[$p]}' in its output"
		fi
		[ -n "$status" ] || status=ok
	fi
	[ "$status" = ok ] || nbad=$((nbad + 1))
	reason=${reason//$'\n'/ }
	echo "suites.sh: $p: $status${verif:+ (check: $verif)}${reason:+ -- $reason} [log $log]" >&2
	csv_add "${key[@]}" "$status" "$verif" "$cycles" "$ipc" "$wi" "$ti" "$launches" "$host" "$reason" ||
		die "cannot append to $csv"
done
echo "suites.sh: $nrun run, $nbad not ok, $nskip already in $csv" >&2
[ $nbad = 0 ]
