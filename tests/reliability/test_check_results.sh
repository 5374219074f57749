#!/usr/bin/env bash
# tests/reliability/test_check_results.sh -- scripts/check-results.py (make
# check-results) on a list of its own, against a copy of a committed CSV
# (docs/kaws/table2.csv, hotspot: two small TITAN X runs, about 2 s):
#   1. the unmodified copy passes (exit 0);
#   2. one changed value fails (exit 1), naming the CSV, row, column, the
#      committed and the new value, and the script that regenerates it;
#   3. a copy without one of the rerun jobs fails (the list no longer
#      describes how the CSV was made);
#   4. a list line with an unknown spec keyword is a usage error (exit 2).
# Prints "N passed, N failed" last; exit 0 only if none failed.
set -u
cd "$(dirname "$0")/../.." || exit 1
W=${WARPSIM_BIN:-build/warpsim}
T=$(mktemp -d /tmp/warpsim-check.XXXXXX)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
check() { scripts/check-results.py --bin "$W" --jobs 2 --list "$T/list" > "$T/out" 2>&1; }
list() { echo "$1 experiments/kaws-table2.spec bench=hotspot${2:-}" > "$T/list"; }

cp docs/kaws/table2.csv "$T/good.csv"
list "$T/good.csv"
if check; then ok "an unmodified CSV passes"; else bad "an unmodified CSV: exit $?: $(tail -c 400 "$T/out")"; fi

# the cycles value of the first hotspot row, plus one
python3 - "$T/good.csv" "$T/moved.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
col = rows[0].index("cycles")
for i, r in enumerate(rows[1:], 2):
    if r[2] == "hotspot":
        r[col] = str(int(r[col]) + 1)
        break
csv.writer(open(sys.argv[2], "w", newline=""), lineterminator="\n").writerows(rows)
PY
list "$T/moved.csv"
check
rc=$?
if [ $rc -eq 1 ] && grep -q "moved.csv: row [0-9]* (job [0-9a-f]*, bench=hotspot.*column cycles: committed [0-9]*, now [0-9]*" "$T/out" &&
	grep -q "scripts/kaws-experiments.sh" "$T/out"; then
	ok "a changed value fails, naming the row, column, both values and the script"
else
	bad "a changed value: exit $rc: $(tail -c 600 "$T/out")"
fi

# drop the CSV's first hotspot row
awk -F, 'NR == 1 || $3 != "hotspot" || seen++' "$T/good.csv" > "$T/short.csv"
list "$T/short.csv"
check
rc=$?
if [ $rc -eq 1 ] && grep -q "is not in the CSV" "$T/out"; then
	ok "a rerun job the CSV does not have fails"
else
	bad "a missing row: exit $rc: $(tail -c 600 "$T/out")"
fi

list "$T/good.csv" " colour=red"
check
rc=$?
if [ $rc -eq 2 ] && grep -q "'colour=red' is not KEYWORD=V1,V2" "$T/out"; then
	ok "an unknown spec keyword in the list is a usage error"
else
	bad "a bad list line: exit $rc: $(tail -c 400 "$T/out")"
fi

# scripts/docs-tables-check.sh: the paper pages regenerate from the
# committed CSVs; a CSV value moved without refilling the page fails, naming
# the paper and the command that refills it
mkdir -p "$T/root/docs"
cp -r docs/kaws docs/kaws.md "$T/root/docs/"
if scripts/docs-tables-check.sh --root "$T/root" kaws > "$T/out" 2>&1; then
	ok "docs-tables-check: the committed KAWS page regenerates"
else
	bad "docs-tables-check on an unmodified copy: $(tail -c 400 "$T/out")"
fi
python3 - "$T/root/docs/kaws/fig5-paper.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
col = rows[0].index("cycles")
rows[1][col] = str(int(rows[1][col]) * 2)
csv.writer(open(sys.argv[1], "w", newline=""), lineterminator="\n").writerows(rows)
PY
scripts/docs-tables-check.sh --root "$T/root" kaws > "$T/out" 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "kaws: the committed page or figures differ.*scripts/kaws-tables.py docs/kaws docs/kaws.md" "$T/out"; then
	ok "docs-tables-check: a CSV moved without refilling its page fails"
else
	bad "docs-tables-check on a moved CSV: exit $rc: $(tail -c 400 "$T/out")"
fi

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
