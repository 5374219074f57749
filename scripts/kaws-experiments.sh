#!/usr/bin/env bash
# kaws-experiments.sh -- regenerate the KAWS paper's experiments on our suite:
# Fig. 5 (IPC over LRR), Table 2 (last-CTA time), Fig. 6 (stall breakdown)
# on the TITAN X model, all three on GTX480 for contrast, and the same on a
# 2-SM TITAN X (kaws-density: several CTAs per SM at small size).  Each is a
# sweep spec under experiments/; shared runs are computed once (--reuse).
# CSVs and HTML reports go to docs/kaws/, the markdown tables to stdout
# (scripts/kaws-tables.py).  The specs say `size small`; for the paper's
# sizes pass SIZE=paper (hours on 2 cores):
#   scripts/kaws-experiments.sh [--jobs N]
#   SIZE=paper scripts/kaws-experiments.sh --jobs 16
set -euo pipefail
cd "$(dirname "$0")/.."
make -j"$(nproc)" all >/dev/null
mkdir -p docs/kaws results
size=${SIZE:-small}
reuse=()
for fig in fig5 table2 fig6 gtx480 density; do
  spec="experiments/kaws-$fig.spec"
  if [ "$size" != small ]; then
    sed "s/^size small/size $size/; s/^name kaws-$fig/name kaws-$fig-$size/" "$spec" > "results/kaws-$fig-$size.spec"
    spec="results/kaws-$fig-$size.spec"
  fi
  out="results/kaws-$fig"
  [ "$size" = small ] || out="results/kaws-$fig-$size"
  build/warpsim sweep "$spec" --out "$out" "${reuse[@]}" "$@"
  build/warpsim collect "$out" --output "docs/kaws/$fig.csv"
  build/warpsim report "$out" --output "docs/kaws/$fig.html"
  reuse+=(--reuse "$out")
done
scripts/kaws-tables.py docs/kaws
