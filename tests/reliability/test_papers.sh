#!/usr/bin/env bash
# tests/reliability/test_papers.sh -- scripts/papers.sh (the rerun of every
# paper result in parts) on parts of its own (PAPERS_PARTS, two tiny runs,
# about 2 s), with its logs and times in a temporary PAPERS_OUT:
#   1. --list names every part of the real set with its command;
#   2. an unknown part and a bad --jobs are usage errors (exit 2), nothing run;
#   3. a part that runs a simulation succeeds, logs its output and appends its
#      wall and CPU seconds to times.csv (CPU > 0: the simulation's time is
#      counted), with --jobs passed to the part as JOBS;
#   4. a failing part makes the whole run exit 1, naming it, after the other
#      parts ran; a part marked "only when named" is not in the default set, and
#      runs when named.
# Prints "N passed, N failed" last; exit 0 only if none failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
W=${WARPSIM_BIN:-build/warpsim}
T=$(mktemp -d /tmp/warpsim-papers.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
export PAPERS_OUT=$T/out

scripts/papers.sh --list > "$T/list" 2>&1
if [ $? = 0 ] && [ "$(grep -c -E '^(baws|bows-small|bows-paper|kaws-small|kaws-paper|dwr-small|dwr-paper|bows-paper-figs|dwr-paper-figs) ' "$T/list")" = 9 ] &&
   grep -q 'scripts/bows-experiments.sh --paper-sets' "$T/list"; then
  ok "--list names the nine parts and their commands"
else bad "--list: $(head -c 400 "$T/list")"; fi

scripts/papers.sh no-such-part > "$T/o" 2>&1; rc=$?
if [ $rc = 2 ] && grep -q "no part 'no-such-part'" "$T/o" && [ ! -e "$T/out" ]; then ok "an unknown part: exit 2, nothing run"
else bad "unknown part: exit $rc: $(head -c 300 "$T/o")"; fi
scripts/papers.sh --jobs x > "$T/o" 2>&1; rc=$?
if [ $rc = 2 ] && grep -q "positive integer" "$T/o"; then ok "--jobs x: exit 2"; else bad "--jobs x: exit $rc"; fi

cat > "$T/parts" <<P
sim|none|tiny|a vecadd run|$W run vecadd --size tiny --sched gto --threads 1 && echo "jobs=\$JOBS"
P
PAPERS_PARTS=$T/parts scripts/papers.sh --jobs 3 sim > "$T/o" 2>&1; rc=$?
row=$(grep '^sim,' "$T/out/times.csv" 2>/dev/null | tail -1)
if [ $rc = 0 ] && grep -q "verification: PASSED" "$T/out/sim.log" && grep -q "jobs=3" "$T/out/sim.log" &&
   python3 -c "import sys; f = '$row'.split(','); sys.exit(0 if len(f) == 6 and f[2] == '3' and float(f[3]) > 0 and float(f[4]) > 0 else 1)"; then
  ok "a part runs, logs, and its wall and CPU seconds reach times.csv ($row)"
else bad "a part: exit $rc, times row '$row': $(tail -c 400 "$T/o")"; fi

cat > "$T/parts" <<P
broken|none|tiny|a failing part|$W run no-such-benchmark
sim|none|tiny|a vecadd run|$W run vecadd --size tiny --threads 1
figs|none|tiny|only when named: not in the default set|echo ran > "$T/figs-ran"
P
PAPERS_PARTS=$T/parts scripts/papers.sh > "$T/o" 2>&1; rc=$?
if [ $rc = 1 ] && grep -q "not done: broken" "$T/o" && grep -q "== sim" "$T/o" && [ "$(grep -c '^sim,' "$T/out/times.csv")" = 2 ] &&
   [ ! -e "$T/figs-ran" ]; then
  ok "a failing part: exit 1 naming it, the next part still ran, an only-when-named part did not"
else bad "a failing part: exit $rc: $(tail -c 400 "$T/o")"; fi

PAPERS_PARTS=$T/parts scripts/papers.sh figs > "$T/o" 2>&1; rc=$?
if [ $rc = 0 ] && [ -e "$T/figs-ran" ]; then ok "an only-when-named part runs when named"
else bad "named figs part: exit $rc: $(tail -c 300 "$T/o")"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
