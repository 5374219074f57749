#!/usr/bin/env bash
# tests/reliability/test_perturb_ratio.sh -- scripts/perturb-ratio.sh in its warpsim mode (the
# GPGPU-Sim mode needs a GPGPU-Sim build; docs/correlation.md, "GTX1080Ti: bhst's GTO/LRR on
# GPGPU-Sim itself") on bhst tiny (about 5 s):
#   1. base + two values: three rows, each row's cycles those of `warpsim run` with that --set,
#      GTO/LRR = LRR cycles / GTO cycles, and the summary line;
#   2. rerun: every row kept, none added;
#   3. a value warpsim rejects: its row left out, exit 1; a spec without '=': exit 2.
# Prints "N passed, N failed" last; exit 0 only if none failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
W=${WARPSIM_BIN:-build/warpsim}
T=$(mktemp -d /tmp/warpsim-perturb.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
P() { WARPSIM_BIN=$W scripts/perturb-ratio.sh warpsim "$@"; }
cyc() { "$W" run bhst --size tiny --config configs/gtx480.cfg "$@" --stats "$T/s.json" --quiet > /dev/null 2>&1 &&
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['stats']['cycles'])" "$T/s.json"; }

P "$T/o.csv" configs/gtx480.cfg tiny "" bhst l1d_latency=33,37 > "$T/out" 2>&1; rc=$?
l=$(cyc --set l1d_latency=37 --sched lrr) g=$(cyc --set l1d_latency=37 --sched gto)
bl=$(cyc --sched lrr) bg=$(cyc --sched gto)
ratio=$(awk -v l="$l" -v g="$g" 'BEGIN { printf "%.4f", l / g }')
if [ $rc = 0 ] && [ "$(wc -l < "$T/o.csv")" = 4 ] && grep -qx "base,-,$bl,$bg,.*" "$T/o.csv" &&
   grep -qx "l1d_latency,37,$l,$g,$ratio" "$T/o.csv" && grep -q "^3 pairs: GTO/LRR mean " "$T/out"; then
  ok "three rows, the cycles of warpsim run, GTO/LRR $ratio, the summary"
else bad "first run: exit $rc: $(cat "$T/out") / $(cat "$T/o.csv")"; fi

cp "$T/o.csv" "$T/before.csv"
P "$T/o.csv" configs/gtx480.cfg tiny "" bhst l1d_latency=33,37 > "$T/out" 2>&1; rc=$?
if [ $rc = 0 ] && cmp -s "$T/o.csv" "$T/before.csv" && [ "$(grep -c ': kept$' "$T/out")" = 3 ]; then
  ok "rerun keeps every row"
else bad "rerun: exit $rc: $(cat "$T/out")"; fi

P "$T/o.csv" configs/gtx480.cfg tiny "" bhst l1d_latency=-3 > "$T/out" 2>&1; rc=$?
if [ $rc = 1 ] && ! grep -q "^l1d_latency,-3," "$T/o.csv" && grep -q "exit .* or no verification" "$T/out"; then
  ok "a rejected value: row left out, exit 1"
else bad "rejected value: exit $rc: $(cat "$T/out")"; fi
P "$T/o.csv" configs/gtx480.cfg tiny "" bhst l1d_latency > "$T/out" 2>&1; rc=$?
if [ $rc = 2 ] && grep -q "want OPTION=V1,V2" "$T/out"; then ok "a spec without '=': exit 2"
else bad "spec without '=': exit $rc: $(cat "$T/out")"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
