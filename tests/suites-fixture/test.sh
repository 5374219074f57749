#!/usr/bin/env bash
# tests/suites-fixture/test.sh -- scripts/suites.sh on a local fixture suite, in
# seconds and without network or CUDA toolkit (run by `make test`, test
# suites_fixture in tests/test_cudart.c).  The fixture is a git repository made
# here from repo/ (make_fixture_repo: two commits with fixed ids; the manifest
# suites.manifest pins the first); nvcc-stub stands in for nvcc by copying the
# executables committed in bin/ (built from repo/*.cu with nvcc -cudart shared).
# Checks: every row's status and verdict (a program that passes its own check,
# one that fails it (printed; by its exit status; by a verify command), one without a check, a failing run, build and input
# generator), its statistics against warpsim cuda's own --stats of the same
# program, the pinned commit checked out, a rerun that skips every row (the
# CSV unchanged), --retry, another policy appended, and the errors (unknown
# suite, manifest errors with file:line, a source without the pinned commit).
# Prints "N passed, N failed" last; exit 0 only if none failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
FIX=$ROOT/tests/suites-fixture
W=${WARPSIM_BIN:-build/warpsim}
case $W in /*) ;; *) W=$ROOT/$W ;; esac
T=$(mktemp -d /tmp/warpsim-suites.XXXXXX)
trap 'rm -rf "$T"' EXIT
[ -n "${KEEP:-}" ] && trap - EXIT
pass=0 fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
check() { # check DESCRIPTION COMMAND...
	local d=$1
	shift
	if "$@"; then ok "$d"; else bad "$d"; fi
}

# the committed executables must start here (glibc 2.34+), as in test_cudart.c
if ! "$FIX/bin/selfcheck" /dev/null >/dev/null 2>&1 && "$FIX/bin/selfcheck" /dev/null 2>&1 | grep -q -e GLIBC -e 'libstdc++'; then
	echo "skip: the committed fixture executables cannot start on this host"
	echo "0 passed, 0 failed"
	exit 0
fi

# make_fixture_repo DIR: the fixture suite as a git repository with two commits
# whose ids are the same everywhere (fixed names, dates and file modes): the
# first is the manifest's pin; the second breaks the input generator, so a run
# that does not check out the pin fails.
make_fixture_repo() {
	local d=$1
	mkdir -p "$d" && cp "$FIX/repo/selfcheck.cu" "$FIX/repo/wrongcheck.cu" "$FIX/repo/gen_input.sh" "$d/" || return 1
	(
		cd "$d" || exit 1
		export GIT_AUTHOR_NAME=fixture GIT_AUTHOR_EMAIL=fixture@warpsim GIT_COMMITTER_NAME=fixture
		export GIT_COMMITTER_EMAIL=fixture@warpsim GIT_AUTHOR_DATE='2026-01-01T00:00:00Z'
		export GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
		g() { git -c core.autocrlf=false -c core.fileMode=false -c commit.gpgsign=false "$@"; }
		g init -q . && g add selfcheck.cu wrongcheck.cu gen_input.sh &&
			g update-index --chmod=-x selfcheck.cu wrongcheck.cu gen_input.sh &&
			g commit -q -m 'fixture suite v1' &&
			echo 'echo broken > "$2"' >>gen_input.sh && g add gen_input.sh &&
			g update-index --chmod=-x gen_input.sh && g commit -q -m 'fixture suite v2: a broken input generator'
	) >/dev/null 2>&1
}

make_fixture_repo "$T/fixture" || { echo "FAIL cannot make the fixture repository"; echo "0 passed, 1 failed"; exit 1; }
pin=$(sed -n 's/^commit //p' "$FIX/suites.manifest")
check "the fixture repository's first commit is the manifest's pin ($pin)" \
	test "$(git -C "$T/fixture" rev-parse HEAD~1)" = "$pin"

S=("$ROOT/scripts/suites.sh" --manifest "$FIX/suites.manifest" --src "fixture=$T/fixture"
	--nvcc "$FIX/nvcc-stub" --warpsim "$W" --work "$T/work")
CSV=$T/work/results.csv
"${S[@]}" --sched gto >"$T/run1.out" 2>&1
rc=$?
check "a run with failing rows exits 1 (got $rc)" test $rc = 1
check "the clone is at the pinned commit" test "$(git -C "$T/work/src/fixture" rev-parse HEAD)" = "$pin"
# field FILE PROGRAM SCHED COLUMN: one field of a row (python's csv module reads it)
field() {
	python3 - "$@" <<'PY'
import csv, sys
path, prog, sched, col = sys.argv[1:]
rows = list(csv.DictReader(open(path, newline="")))
hit = [r for r in rows if r["program"] == prog and r["sched"] == sched]
print(hit[0][col] if len(hit) == 1 else "<%d rows>" % len(hit))
PY
}
expect() { # expect PROGRAM SCHED COLUMN VALUE
	local got
	got=$(field "$CSV" "$1" "$2" "$3")
	if [ "$got" = "$4" ]; then ok "$1 ($2): $3 = $4"; else bad "$1 ($2): $3 is '$got', expected '$4'"; fi
}
expect_has() { # expect_has PROGRAM SCHED COLUMN TEXT
	local got
	got=$(field "$CSV" "$1" "$2" "$3")
	case $got in *"$4"*) ok "$1 ($2): $3 names '$4'" ;; *) bad "$1 ($2): $3 is '$got', expected it to name '$4'" ;; esac
}
check "the CSV has its header" test "$(head -n1 "$CSV")" = \
	"suite,program,size,args,sched,fetch,config,status,verification,cycles,ipc,warp_insts,thread_insts,launches,host_s,reason"
check "the CSV has 9 rows" test "$(($(wc -l <"$CSV") - 1))" = 9
expect selfcheck gto status ok
expect selfcheck gto verification pass
expect selfcheck gto args "./selfcheck n.txt"
expect selfcheck gto launches 2
expect selfcheck gto config default
expect wrongcheck gto status check-failed
expect wrongcheck gto verification fail
expect_has wrongcheck gto reason "Result = FAIL"
expect nocheck gto status ok
expect nocheck gto verification none
expect noinput gto status run-failed
expect noinput gto verification ""
expect_has noinput gto reason "exit status 1: selfcheck: cannot read a size from missing.txt"
expect broken gto status build-failed
expect_has broken gto reason "Cannot find compiler input file 'missing.cu'"
expect badgen gto status input-failed
expect_has badgen gto reason "no_such_generator.sh"
expect exitcheck gto status check-failed
expect exitcheck gto verification fail
expect_has exitcheck gto reason "exit status 1"
expect verified gto status ok
expect verified gto verification pass
expect misverified gto status check-failed
expect misverified gto verification fail
expect_has misverified gto reason "verify command 'cmp nm.txt no_such_reference.txt' exited 2: cmp: no_such_reference.txt: No such file"

# the statistics are warpsim cuda's own for the same program and input
echo 1000 >"$T/n.txt"
(cd "$T" && "$W" cuda --quiet --sched gto --stats "$T/direct.jsonl" -- "$FIX/bin/selfcheck" n.txt >/dev/null 2>&1)
want=$(python3 - "$T/direct.jsonl" <<'PY'
import json, sys
L = [json.loads(l) for l in open(sys.argv[1])]
c, w, t = (sum(d[k] for d in L) for k in ("cycles", "warp_insts", "thread_insts"))
print(c, w, t, "%.4f" % (t / c))
PY
)
got="$(field "$CSV" selfcheck gto cycles) $(field "$CSV" selfcheck gto warp_insts) $(field "$CSV" selfcheck gto thread_insts) $(field "$CSV" selfcheck gto ipc)"
check "selfcheck's cycles, warp/thread instructions and IPC are warpsim cuda's ($want; CSV: $got)" test "$got" = "$want"

# resumable: a second run skips every row and leaves the CSV as it was
cp "$CSV" "$T/csv1"
"${S[@]}" --sched gto >"$T/run2.out" 2>&1
check "a rerun skips the 9 rows already in the CSV" grep -q "0 run, 0 not ok, 9 already in" "$T/run2.out"
check "a rerun leaves the CSV unchanged" cmp -s "$CSV" "$T/csv1"
# --retry reruns the 4 rows that are not ok, replacing them
"${S[@]}" --sched gto --retry >"$T/run3.out" 2>&1
check "--retry reruns the 6 rows not ok" grep -q "6 run, 6 not ok, 3 already in" "$T/run3.out"
check "--retry leaves 9 rows" test "$(($(wc -l <"$CSV") - 1))" = 9
# another policy, one program, the small input: a row of its own
"${S[@]}" --sched lrr --fetch rr --program fixture/selfcheck --size small >"$T/run4.out" 2>&1
check "a run of one passing program exits 0" test $? = 0
check "it adds one row" test "$(($(wc -l <"$CSV") - 1))" = 10
expect selfcheck lrr fetch rr
expect selfcheck lrr size small
expect selfcheck lrr args "./selfcheck n_small.txt"
expect selfcheck lrr verification pass
# --retry of one program leaves the other programs' rows that are not ok alone
"${S[@]}" --sched gto --retry --program selfcheck >"$T/run5.out" 2>&1
check "--retry --program selfcheck keeps the other rows" test "$(($(wc -l <"$CSV") - 1))" = 10

# errors: usage and manifest errors exit 2 naming the thing; a source
# without the pinned commit is a row with the reason
"${S[@]}" --suite nosuch >"$T/e1" 2>&1
check "--suite nosuch: exit 2 naming it" test $? = 2 -a -n "$(grep 'suites.sh: error: --suite nosuch: not in' "$T/e1")"
"${S[@]}" --sched nosuch-policy >"$T/e2" 2>&1
check "--sched nosuch-policy: exit 2, warpsim's reason" test $? = 2 -a -n "$(grep 'warpsim cuda refused the options' "$T/e2")"
printf 'suite x\nurl u\ncommit 1234\n' >"$T/bad.manifest"
"$ROOT/scripts/suites.sh" --manifest "$T/bad.manifest" --list >"$T/e3" 2>&1
check "a short commit id: exit 2 naming file:line" test $? = 2 -a -n "$(grep "bad.manifest:3: commit '1234'" "$T/e3")"
printf 'suite x\nurl u\nprogram p\nbuild true\nrn paper ./p\n' >"$T/bad2.manifest"
"$ROOT/scripts/suites.sh" --manifest "$T/bad2.manifest" --list >"$T/e4" 2>&1
check "an unknown key: exit 2 naming file:line" test $? = 2 -a -n "$(grep "bad2.manifest:5: unknown key 'rn'" "$T/e4")"
git init -q "$T/other" && git -C "$T/other" -c user.name=x -c user.email=x@x commit -q --allow-empty -m x
"$ROOT/scripts/suites.sh" --manifest "$FIX/suites.manifest" --src "fixture=$T/other" --nvcc "$FIX/nvcc-stub" \
	--warpsim "$W" --work "$T/work2" --program selfcheck >"$T/e5" 2>&1
check "a clone without the pinned commit: exit 1" test $? = 1
CSV=$T/work2/results.csv expect selfcheck default status source-failed
CSV=$T/work2/results.csv expect_has selfcheck default reason "the pinned commit $pin is not in $T/other"

check "each run keeps warpsim cuda's summary beside its log" \
	test -s "$T/work/logs/fixture.selfcheck.paper.gto.default.default.summary.json"

# scripts/workloads.py end to end on the fixture: a fidelity table of ours (tiny) beside the
# fixture's programs, cached per run, the page rewritten from the cache alone
WL=(python3 "$ROOT/scripts/workloads.py" --tables "$FIX/workloads.tables" --manifest "$FIX/suites.manifest"
	--src "fixture=$T/fixture" --nvcc "$FIX/nvcc-stub" --warpsim "$W" --work "$T/wl" --out "$T/wl.md")
"${WL[@]}" >"$T/wl1.out" 2>&1
check "workloads.py on the fixture exits 0" test $? = 0
check "it runs 10 runs (3 of ours, 2 originals, under 2 policies) and prints their CPU time" \
	grep -q "CPU time of the 10 runs executed now" "$T/wl1.out"
check "the page has the table's title and header" grep -q "^| kernel | run | input | status | launches" "$T/wl.md"
check "ours and the original are measured under LRR and GTO" \
	grep -Eq "^\| vecadd \| fixture/selfcheck \| paper \`./selfcheck n.txt\` \| ok \(check: pass\) \| 2 \|" "$T/wl.md"
check "ours' row has its cycles under both policies" \
	grep -Eq "^\| vecadd \| ours \| tiny \| ok \| 1 \| 4 \| 256 \|.*\| [0-9,]+ \| [0-9,]+ \| [0-9.]+ \|$" "$T/wl.md"
check "a program that does not build shows its status" grep -q "^| sp | fixture/broken | paper \`./broken\` | build-failed: build command" "$T/wl.md"
check "an original not in the suite says why" grep -q "^\[2\] not in the fixture suite" "$T/wl.md"
check "the paper's numbers are a line of their own" grep -q "^| vecadd | paper | VA |  | 1 |  | 128 |" "$T/wl.md"
check "what differs names the sizes and the launches against the original" grep -q \
	"^\* \*\*vecadd\*\* (fixture/selfcheck): (ours at tiny size, the original at its paper input) launches 1 vs 2" "$T/wl.md"
cp "$T/wl.md" "$T/wl1.md"
"${WL[@]}" >"$T/wl2.out" 2>&1
check "a rerun runs nothing (every run cached)" grep -q "CPU time of the 0 runs executed now" "$T/wl2.out"
check "and writes the same page" cmp -s "$T/wl.md" "$T/wl1.md"
"${WL[@]}" --no-run --work "$T/wl-empty" >"$T/wl3.out" 2>&1
check "--no-run without a cache: every cell 'not run'" grep -q "^| vecadd | ours | tiny | not run |" "$T/wl.md"
printf 'paper x configs/gtx480.cfg G T\nrow sp\n' >"$T/bad.tables"
python3 "$ROOT/scripts/workloads.py" --tables "$T/bad.tables" --warpsim "$W" --work "$T/wl" --out "$T/x.md" >"$T/e6" 2>&1
check "a bad tables line: exit 2 naming file:line" test $? = 2 -a -n "$(grep "bad.tables:2: 'row OURS ORIGINAL SIZE" "$T/e6")"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
