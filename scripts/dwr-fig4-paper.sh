#!/usr/bin/env bash
# dwr-fig4-paper.sh -- the DWR paper's Figure 4 at PAPER size on all 14 members of
# the dwr suite, as three resumable sweeps (fixed 8/16/32/64 and DWR-16/32/64 each):
#   experiments/dwr-fig4-paper-rest.spec    bfs mu nqu nw pathfinder (35 runs)
#   experiments/dwr-fig4-paper-subset.spec  the other eight (56 runs)
#   experiments/dwr-fig4-paper-mp.spec      mp, the most expensive (7 runs)
# one job at a time under nice by default (JOBS=16 on a 16-core machine), the
# cheapest members first.  Writes docs/dwr/fig4-paper-PART.csv once its sweep
# has every job, and the commit the runs were made at into docs/dwr/COMMITS;
# scripts/dwr-tables.py docs/dwr headline docs/dwr.md then refills docs/dwr.md.
#   scripts/dwr-fig4-paper.sh [rest|subset|mp]...      (default: all three)
set -euo pipefail
cd "$(dirname "$0")/.."
make -j2 all >/dev/null
# the model's commit: HEAD, marked -dirty when the simulator's sources differ from it
commit=$(git rev-parse --short=7 HEAD)
git diff --quiet HEAD -- src include bench configs Makefile || commit+=-dirty
# the runs' wall seconds (their JSON's job.wall_seconds), summed over the sweep's jobs
runs_wall() {
  python3 -c 'import json, sys, os
d = sys.argv[1]
ids = [l.split("\t")[0] for l in open(os.path.join(d, "jobs.txt")) if "\t" in l]
print(round(sum(json.load(open(os.path.join(d, "jobs", i + ".json")))["job"]["wall_seconds"] for i in ids)))' "$1"
}
parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(rest subset mp)
for part in "${parts[@]}"; do
  spec=experiments/dwr-fig4-paper-$part.spec
  out=results/dwr-fig4-paper-$part
  reuse=()
  for o in results/dwr-fig4-paper-*; do
    [ -d "$o" ] && [ "$o" != "$out" ] && reuse+=(--reuse "$o")
  done
  nice -n 10 build/warpsim sweep "$spec" --out "$out" --jobs "${JOBS:-1}" "${reuse[@]}" || true
  left=$(build/warpsim sweep "$spec" --out "$out" --dry-run | grep -c -v -E '^[0-9a-f]{16} done|^sweep ' || true)
  if [ "$left" != 0 ]; then
    echo "dwr-fig4-paper: $left jobs of $spec not done; rerun to resume (no CSV written)" >&2
    exit 1
  fi
  build/warpsim collect "$out" --output "docs/dwr/fig4-paper-$part.csv"
  touch docs/dwr/COMMITS
  { grep -v "^fig4-paper-$part.csv " docs/dwr/COMMITS || true
    echo "fig4-paper-$part.csv $commit $(date -u +%F) $(runs_wall "$out") s of run wall time summed, JOBS=${JOBS:-1}"
  } | sort > docs/dwr/COMMITS.new
  mv docs/dwr/COMMITS.new docs/dwr/COMMITS
done
