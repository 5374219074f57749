#!/usr/bin/env bash
# dwr-experiments.sh -- the DWR paper's experiments (Figures 1, 2, 4, 5a-c)
# on our dwr suite: each figure is a sweep spec under experiments/dwr-*.spec.
#   scripts/dwr-experiments.sh [SIZE] [sweep options, e.g. --jobs N]
# SIZE is tiny, small or paper (default paper, the specs' own size).  The
# specs are run from copies with that size, keeping only the benchmarks
# `warpsim list` knows (a missing one is reported).  Results go to
# results/dwr-FIG-SIZE, CSVs and HTML reports to docs/dwr/FIG-SIZE.*; then
# scripts/dwr-tables.py docs/dwr SIZE prints the tables of docs/dwr.md.
# Runs shared between figures are computed once (--reuse); resumable.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cpu-total.sh
cpu_total_at_exit dwr-experiments.sh
size=${1:-paper}
[ $# -gt 0 ] && shift
case $size in tiny|small|paper) ;; *) echo "usage: $0 [tiny|small|paper] [sweep options]" >&2; exit 2;; esac
make -j2 all >/dev/null
known=" $(build/warpsim list | awk 'NR>1 {print $1}' | tr '\n' ' ') "
mkdir -p docs/dwr results
# the specs run, kept under results/ at a fixed path: the HTML reports name it, so a
# rerun that changes nothing leaves them byte-identical
tmp=results/dwr-specs-$size
mkdir -p "$tmp"
reuse=()
for fig in fig4 fig2 fig1 fig5a fig5b fig5c; do
  spec=experiments/dwr-$fig.spec
  benches=""
  for b in $(sed -n 's/^bench //p' "$spec"); do
    if [[ $known == *" $b "* ]]; then benches+=" $b"; else echo "dwr-$fig: benchmark $b is not bundled, skipped" >&2; fi
  done
  sed -e "s/^size .*/size $size/" -e "s/^bench .*/bench$benches/" \
      -e "s/^name .*/name dwr-$fig-$size/" "$spec" > "$tmp/dwr-$fig.spec"
  out=results/dwr-$fig-$size
  build/warpsim sweep "$tmp/dwr-$fig.spec" --out "$out" "${reuse[@]}" "$@" || true
  build/warpsim collect "$out" --output "docs/dwr/$fig-$size.csv"
  build/warpsim report "$out" --output "docs/dwr/$fig-$size.html"
  reuse+=(--reuse "$out")
done
echo "done: docs/dwr/*-$size.csv and .html; tables: scripts/dwr-tables.py docs/dwr $size"
