#!/usr/bin/env bash
# bows-experiments.sh -- regenerate the BOWS paper's experiments (ElTantawy &
# Aamodt, HPCA'18; issue 11) on our busy-wait suite: Figures 2, 9, 10, 11-13,
# 14, 15 (GTX1080Ti), 16 and Table I, and two controlled studies of ours
# (bows-adaptive: Table II's FRAC1 and maximum limit; bows-occupancy: the
# inputs on one SM).  Each is a sweep spec under experiments/
# (bows-*.spec, written for size paper); runs shared between figures are
# computed once (--reuse).  Results go to results/bows-SIZE/, the CSVs and
# HTML reports to docs/bows/ (and each CSV's commit to docs/bows/COMMITS), and
# scripts/bows-tables.py prints the tables of docs/bows.md from those CSVs.
# The paper-size sets (the whole Fig. 9 grid, docs/bows/fig9-paper.csv, and
# the older subsets bows-fig9-paper-fast, -ht, -gto and bows-adaptive-paper:
# docs/bows/fig9-paper-*.csv, adaptive-paper.csv; Figs. 10-13, 14, 16 and 15
# (GTX1080Ti): docs/bows/fig10-paper.csv, fig14-paper.csv, fig16-paper.csv,
# fig15-paper.csv; Table I: table1-{h,m,t,l,sh}-paper.csv) run with --paper-sets
# instead of the figures.  Resumable:
# rerun the same command.
#
#   scripts/bows-experiments.sh [--size tiny|small|paper] [--jobs N] [other warpsim sweep options]
#   scripts/bows-experiments.sh --paper-sets [--jobs N] [...]   # the paper-size sets (hours on 2 cores: NW1, NW2, TSP)
#
# Default size: small (what docs/bows.md reports; 93 CPU seconds, 4 minutes with one
# job on a loaded 2-core machine, at b5fd829).  --size paper runs the paper's inputs
# (minutes to tens of minutes per run; use --jobs or --slurm).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cpu-total.sh
cpu_total_at_exit bows-experiments.sh
size=small
args=()
paper_sets=0
while [ $# -gt 0 ]; do
  case "$1" in
    --paper-sets) paper_sets=1; size=paper; shift ;;
    --size) size="$2"; shift 2 ;;
    --size=*) size="${1#--size=}"; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
case "$size" in tiny|small|paper) ;; *) echo "bows-experiments.sh: --size must be tiny, small or paper" >&2; exit 2 ;; esac
scripts/setup.sh
make -j"$(nproc)" all >/dev/null
res="results/bows-$size"
mkdir -p "$res/specs" docs/bows
reuse=()
# docs/bows/COMMITS: the commit (and size) each CSV was written at, for docs/bows.md's opening table
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
set_commit() {
  awk -v c="$1" -v h="$commit" -v sz="$size" '$1 == c { printf "%-25s %-8s %s\n", c, h, sz; done = 1; next } { print }
    END { if (!done) printf "%-25s %-8s %s\n", c, h, sz }' docs/bows/COMMITS > docs/bows/COMMITS.tmp
  mv docs/bows/COMMITS.tmp docs/bows/COMMITS
}
touch docs/bows/COMMITS
if [ "$paper_sets" = 1 ]; then
  # fig9-paper is the whole Fig. 9 grid (experiments/bows-fig9.spec at paper size); the sets after it reuse
  # the runs they share with it (the three fig9-paper-* subsets are all its runs, so they cost nothing more)
  # fig10/14/15/16-paper are those figures' specs as written (size paper): Figs. 10-13, 14, 15 (GTX1080Ti), 16
  # table1-X-paper: the five Table I specs as written (size paper), each reusing the runs before it.
  # A failed job (fig16-paper's livelocks at 16 and 64 buckets, table1-t-paper's TSP at t = 2) is a row
  # of the CSV and does not stop the loop; a rerun retries it (a failure record does not say which
  # binary made it, so after a model change it must run again).
  for set in fig9-paper fig9-paper-fast fig9-paper-ht adaptive-paper fig9-paper-gto fig10-paper fig14-paper \
             fig16-paper fig15-paper table1-h-paper table1-m-paper table1-t-paper table1-l-paper table1-sh-paper; do
    spec="experiments/bows-$set.spec"
    case "$set" in
      fig9-paper|fig10-paper|fig14-paper|fig15-paper|fig16-paper|table1-*-paper) spec="experiments/bows-${set%-paper}.spec" ;;
    esac
    build/warpsim sweep "$spec" --out "$res/$set" ${reuse[@]+"${reuse[@]}"} ${args[@]+"${args[@]}"} || echo "bows-experiments.sh: $set: some jobs failed (see above)" >&2
    left=$(build/warpsim sweep "$spec" --out "$res/$set" --dry-run | grep -c -v -E '^[0-9a-f]{16} (done|failed)|^sweep ' || true)
    if [ "$left" != 0 ]; then
      echo "bows-experiments.sh: $left jobs of $set not done; rerun to resume (docs/bows/$set.csv not written)" >&2
      exit 1
    fi
    build/warpsim collect "$res/$set" --output "docs/bows/$set.csv"
    set_commit "$set.csv"
    reuse+=(--reuse "$res/$set")
  done
  scripts/bows-tables.py docs/bows > docs/bows/tables.md
  echo "done: docs/bows/{fig9-paper,fig9-paper-fast,fig9-paper-ht,adaptive-paper,fig9-paper-gto,fig10-paper,fig14-paper,fig16-paper,fig15-paper,table1-{h,m,t,l,sh}-paper}.csv (paper size)"
  exit 0
fi
# fig9 first: fig2 is a subset of it; the Table I specs share their common
# configuration; fig11-13 are fig10's runs.
for fig in fig9 fig2 fig15 fig10 fig11-13 fig14 fig16 table1-h table1-m table1-t table1-l table1-sh adaptive occupancy; do
  spec="$res/specs/bows-$fig.spec"
  sed "s/^size paper\$/size $size/" "experiments/bows-$fig.spec" > "$spec"
  build/warpsim sweep "$spec" --out "$res/$fig" ${reuse[@]+"${reuse[@]}"} ${args[@]+"${args[@]}"} || echo "bows-experiments.sh: $fig: some jobs failed (see above)" >&2
  build/warpsim collect "$res/$fig" --output "docs/bows/$fig.csv"
  set_commit "$fig.csv"
  build/warpsim report "$res/$fig" --output "docs/bows/$fig.html"
  reuse+=(--reuse "$res/$fig")
done
echo "$size" > docs/bows/SIZE
scripts/bows-tables.py docs/bows > docs/bows/tables.md
echo "done: docs/bows/*.csv, docs/bows/*.html, docs/bows/tables.md (size $size)"
