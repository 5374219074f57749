#!/usr/bin/env bash
# tests/reliability/test_cta_lives.sh -- scripts/cta-lives.py (each CTA's life and its
# co-residents on its SM, from a `warpsim run --trace` file; docs/baws.md's mg paragraphs)
# (about 2 s):
#   1. a hand-made trace: two CTAs on SM 3 overlapping 50 cycles, one alone on SM 0:
#      exact lives, phase counts, overlap and the heavy mark; --csv rows;
#   2. a real trace (mg tiny on one SM, two CTAs): the CTA count equals the run's
#      stats.ctas, the last phase ends at most at stats.cycles, the two CTAs share SM 0;
#   3. bad input: not JSON, no traceEvents, an unknown --launch: exit 2 with a message.
# Prints "N passed, N failed" last; exit 0 only if none failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
W=${WARPSIM_BIN:-build/warpsim}
T=$(mktemp -d /tmp/warpsim-ctalives.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

cat > "$T/t.json" <<'JSON'
{"otherData": {"dropped_records": 0}, "traceEvents": [
 {"name": "thread_name", "ph": "M", "pid": 3, "tid": 1, "args": {"name": "CTA 5 warp 0"}},
 {"name": "thread_name", "ph": "M", "pid": 3, "tid": 2, "args": {"name": "CTA 5 warp 1"}},
 {"name": "thread_name", "ph": "M", "pid": 3, "tid": 3, "args": {"name": "CTA 6 warp 0"}},
 {"name": "thread_name", "ph": "M", "pid": 0, "tid": 4, "args": {"name": "CTA 7 warp 0"}},
 {"name": "phase 0", "cat": "run", "ph": "X", "pid": 3, "tid": 1, "ts": 10, "dur": 40, "args": {"launch": 1, "cta": 5, "warp": 0}},
 {"name": "barrier wait", "cat": "barrier", "ph": "X", "pid": 3, "tid": 1, "ts": 50, "dur": 10},
 {"name": "phase 1", "cat": "run", "ph": "X", "pid": 3, "tid": 1, "ts": 60, "dur": 40, "args": {"launch": 1, "cta": 5, "warp": 0}},
 {"name": "phase 0", "cat": "run", "ph": "X", "pid": 3, "tid": 2, "ts": 10, "dur": 50, "args": {"launch": 1, "cta": 5, "warp": 1}},
 {"name": "phase 1", "cat": "run", "ph": "X", "pid": 3, "tid": 2, "ts": 60, "dur": 45, "args": {"launch": 1, "cta": 5, "warp": 1}},
 {"name": "phase 0", "cat": "run", "ph": "X", "pid": 3, "tid": 3, "ts": 55, "dur": 100, "args": {"launch": 1, "cta": 6, "warp": 0}},
 {"name": "phase 0", "cat": "run", "ph": "X", "pid": 0, "tid": 4, "ts": 1, "dur": 20, "args": {"launch": 1, "cta": 7, "warp": 0}}
]}
JSON
scripts/cta-lives.py "$T/t.json" --top 1 --csv "$T/t.csv" > "$T/o" 2>&1; rc=$?
if [ $rc = 0 ] && grep -qx "launch 1: 3 CTAs, last phase ends at cycle 155; barrier phases per CTA: median 1, max 2" "$T/o" &&
   grep -qx "  CTA 6: SM 3, cycles 55-155, life 100, phases 1; co-resident (CTA:overlap, \*heavy) 5\*:50" "$T/o" &&
   [ "$(wc -l < "$T/o")" = 2 ] && grep -qx "1,5,3,10,105,95,2" "$T/t.csv" && grep -qx "1,7,0,1,21,20,1" "$T/t.csv" &&
   [ "$(wc -l < "$T/t.csv")" = 4 ]; then ok "hand-made trace: lives, phases, overlap, heavy mark, CSV"
else bad "hand-made trace: exit $rc: $(cat "$T/o") / $(cat "$T/t.csv" 2>/dev/null)"; fi

"$W" run mg --size tiny --set num_sms=1 --trace "$T/mg.json" --stats "$T/mg.stats.json" > /dev/null 2>&1
scripts/cta-lives.py "$T/mg.json" --top 2 > "$T/o" 2>&1; rc=$?
read -r ctas cycles < <(python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['stats']; print(s['ctas'], s['cycles'])" "$T/mg.stats.json")
end=$(sed -n 's/^launch 1: \([0-9]*\) CTAs, last phase ends at cycle \([0-9]*\);.*/\1 \2/p' "$T/o")
if [ $rc = 0 ] && [ "${end% *}" = "$ctas" ] && [ "${end#* }" -le "$cycles" ] && [ "$ctas" -ge 2 ] &&
   [ "$(grep -c '^  CTA [0-9]*: SM 0, .*co-resident (CTA:overlap, \*heavy) [0-9]' "$T/o")" = 2 ]; then
  ok "mg tiny on one SM: $ctas CTAs as stats.ctas, last phase at ${end#* } <= $cycles cycles, co-resident"
else bad "mg tiny: exit $rc, stats $ctas CTAs $cycles cycles: $(cat "$T/o")"; fi

echo "not json" > "$T/bad.json"
scripts/cta-lives.py "$T/bad.json" > "$T/o" 2>&1; rc=$?
if [ $rc = 2 ] && grep -q "cannot read a JSON trace" "$T/o"; then ok "not JSON: exit 2"; else bad "not JSON: exit $rc: $(cat "$T/o")"; fi
echo '{"a": 1}' > "$T/bad.json"
scripts/cta-lives.py "$T/bad.json" > "$T/o" 2>&1; rc=$?
if [ $rc = 2 ] && grep -q "no traceEvents" "$T/o"; then ok "no traceEvents: exit 2"; else bad "no traceEvents: exit $rc: $(cat "$T/o")"; fi
scripts/cta-lives.py "$T/t.json" --launch 9 > "$T/o" 2>&1; rc=$?
if [ $rc = 2 ] && grep -q "launch 9 is not in the trace" "$T/o"; then ok "unknown launch: exit 2"; else bad "unknown launch: exit $rc: $(cat "$T/o")"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
