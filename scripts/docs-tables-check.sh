#!/usr/bin/env bash
# docs-tables-check.sh -- the tables of each paper's page regenerate from
# the committed CSVs: runs every paper's table script (scripts/PAPER-tables.py
# docs/PAPER docs/PAPER.md -- dwr: docs/dwr headline docs/dwr.md -- which
# refills the page's generated sections and writes its figures into
# docs/PAPER/) on a copy of docs/PAPER/ and docs/PAPER.md, and fails
# naming the files that differ from the committed ones.  A commit that moves
# a CSV without refilling its page (or edits a generated table by hand)
# fails here.  Standard tools only; a few seconds.  make check-results runs it.
#   scripts/docs-tables-check.sh [--root DIR] [PAPER...]   # default: baws bows kaws dwr
# --root DIR: check DIR/docs/PAPER* instead of the tree's (its test uses a copy).
set -u
cd "$(dirname "$0")/.." || exit 1
root=.
if [ "${1:-}" = --root ]; then root=$2; shift 2; fi
papers=("$@")
[ ${#papers[@]} -gt 0 ] || papers=(baws bows kaws dwr)
T=$(mktemp -d /tmp/warpsim-docs-tables.XXXXXX)
trap 'rm -rf "$T"' EXIT
bad=0
repo=$(pwd)
for p in "${papers[@]}"; do
  script=scripts/$p-tables.py
  if [ ! -f "$script" ] || [ ! -d "$root/docs/$p" ] || [ ! -f "$root/docs/$p.md" ]; then
    echo "docs-tables-check: $p: no $script, docs/$p/ or docs/$p.md" >&2
    bad=1
    continue
  fi
  # the page names its CSVs by path: the copy keeps the layout (docs/PAPER)
  mkdir -p "$T/$p/docs"
  cp -r "$root/docs/$p" "$root/docs/$p.md" "$T/$p/docs/"
  case $p in
    dwr) args=(docs/dwr headline docs/dwr.md) ;;
    *) args=("docs/$p" "docs/$p.md") ;;
  esac
  if ! (cd "$T/$p" && python3 "$repo/$script" "${args[@]}") > "$T/$p.out" 2>&1; then
    echo "docs-tables-check: $script failed:" >&2
    tail -5 "$T/$p.out" >&2
    bad=1
    continue
  fi
  d=$(diff -rq "$root/docs/$p" "$T/$p/docs/$p"; diff -q "$root/docs/$p.md" "$T/$p/docs/$p.md")
  if [ -n "$d" ]; then
    echo "docs-tables-check: $p: the committed page or figures differ from what $script makes of the committed CSVs (run: $script ${args[*]}):" >&2
    diff -u "$root/docs/$p.md" "$T/$p/docs/$p.md" | head -20 >&2
    diff -rq "$root/docs/$p" "$T/$p/docs/$p" >&2
    bad=1
  else
    echo "docs-tables-check: $p: docs/$p.md and docs/$p/ regenerate from the committed CSVs"
  fi
done
exit $bad
