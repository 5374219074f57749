#!/usr/bin/env bash
# tests/reliability/test_energy_compare.sh -- scripts/energy-compare.py (warpsim's energy
# estimate beside AccelWattch, docs/correlation.md) on committed references (about 2 s):
#   1. the TITAN X hotspot pair: one row per run, the LRR/GTO line, the summary;
#   2. mriq, whose 462-cycle launch has no AccelWattch sample, is reported as not
#      compared, never divided by zero;
#   3. --doc/--key refill a copy of docs/correlation.md and leave its other energy
#      sections as they were; a key without a marker is an error;
#   4. a reference without accelwattch.txt only: an error, exit non-zero.
# Prints "N passed, N failed" last; exit 0 only if none failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
W=${WARPSIM_BIN:-build/warpsim}
T=$(mktemp -d /tmp/warpsim-energy.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
E() { scripts/energy-compare.py --warpsim "$W" "$@"; }
R=tests/correlation/titanx-pascal

E $R/hotspot_lrr $R/hotspot_gto > "$T/o" 2>&1; rc=$?
if [ $rc = 0 ] && [ "$(grep -c '^| hotspot | \(lrr\|gto\) | small |' "$T/o")" = 2 ] && grep -q '^| hotspot | 1\.' "$T/o" &&
   grep -q '^2 runs: energy MAPE' "$T/o"; then ok "two runs compared, LRR/GTO and summary"
else bad "hotspot: exit $rc: $(head -c 600 "$T/o")"; fi

E $R/mriq_gto $R/hotspot_gto > "$T/o" 2>&1; rc=$?
if [ $rc = 0 ] && grep -q "not compared: mriq_gto: AccelWattch has no power sample for 1 of its 3 launches" "$T/o" &&
   grep -q '^1 runs' "$T/o"; then ok "a launch without a power sample is reported, not compared"
else bad "mriq: exit $rc: $(head -c 600 "$T/o")"; fi

cp docs/correlation.md "$T/page.md"
python3 - "$T/page.md" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
s = re.sub(r"(<!-- energy-tables:titanx-pascal -->\n).*?(<!-- /energy-tables -->)", r"\1stale\n\2", s, flags=re.S)
open(p, "w").write(s)
PY
before=$(sed -n '/energy-tables:gtx1080ti/,/\/energy-tables/p' "$T/page.md")
E --doc "$T/page.md" --key titanx-pascal $R/hotspot_lrr $R/hotspot_gto > /dev/null 2>&1; rc=$?
after=$(sed -n '/energy-tables:gtx1080ti/,/\/energy-tables/p' "$T/page.md")
if [ $rc = 0 ] && ! grep -q '^stale$' "$T/page.md" && grep -q '^| hotspot | gto | small |' "$T/page.md" && [ "$before" = "$after" ]; then
  ok "--doc refills its section and keeps the others"
else bad "--doc: exit $rc"; fi
E --doc "$T/page.md" --key no-such-key $R/hotspot_gto > "$T/o" 2>&1; rc=$?
if [ $rc != 0 ] && grep -q "no marker <!-- energy-tables:no-such-key -->" "$T/o"; then ok "--key without a marker: error"
else bad "--key no-such-key: exit $rc: $(head -c 300 "$T/o")"; fi

mkdir -p "$T/refs/x_gto"
E "$T/refs/x_gto" > "$T/o" 2>&1; rc=$?
if [ $rc != 0 ] && grep -q "no reference with accelwattch.txt" "$T/o"; then ok "no power reference: error"
else bad "no power reference: exit $rc: $(head -c 300 "$T/o")"; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
