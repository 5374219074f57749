#!/usr/bin/env bash
# baws-experiments.sh -- regenerate the BAWS paper's experiments on our suite:
# Figures 8, 9, 10, 11/14, 12, the I-buffer depth study (Section 6.4), an occupancy study and the
# characterization (Figures 1 and 5).  Each figure is a sweep spec under
# experiments/; runs shared between figures are computed once (--reuse).
# Results go to results/, and the HTML reports (tables + SVG plots) and CSVs
# to docs/baws/.  About 45 minutes on 2 cores at paper size; resumable.
#   scripts/baws-experiments.sh [--jobs N]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cpu-total.sh
cpu_total_at_exit baws-experiments.sh
scripts/setup.sh
make -j"$(nproc)" all >/dev/null
mkdir -p docs/baws
reuse=()
for fig in fig8 fig10 fig9 fig12 fig11 ibuf occupancy; do
  build/warpsim sweep "experiments/baws-$fig.spec" --out "results/baws-$fig" "${reuse[@]}" "$@"
  build/warpsim collect "results/baws-$fig" --output "docs/baws/$fig.csv"
  build/warpsim report "results/baws-$fig" --output "docs/baws/$fig.html"
  reuse+=(--reuse "results/baws-$fig")
done
build/warpsim characterize --size paper "$@"
echo "done: docs/baws/*.html, docs/baws/*.csv, docs/characterization.md"
