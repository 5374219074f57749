#!/usr/bin/env bash
# kaws-experiments.sh -- regenerate the KAWS paper's experiments on our suite:
# Fig. 5 (IPC over LRR), Table 2 (last-CTA time), Fig. 6 (stall breakdown)
# on the TITAN X model, all three on GTX480 for contrast, and the same on a
# 2-SM TITAN X (kaws-density).  Each is a sweep spec under experiments/;
# shared runs are computed once (--reuse).  CSVs and HTML reports go to
# docs/kaws/, the markdown tables to stdout (scripts/kaws-tables.py).
#
#   scripts/kaws-experiments.sh [--jobs N]              # size small: docs/kaws/{fig5,table2,fig6,gtx480,density}.csv
#   SIZE=paper scripts/kaws-experiments.sh [--jobs N]   # paper size: docs/kaws/{fig5,gtx480,density}-paper.csv
#   SKIP="gtx480 density" ...                           # leaves out the named figures and readings
#
# Paper size runs the specs at `size paper-kaws`: the KAWS paper's Table 2
# inputs (kernels, CTAs per kernel), which hotspot, pathfinder, streamcluster
# and 3mm have apart from the `paper` input the BAWS and DWR sets run
# (bench/README.md, "KAWS inputs"); the CSVs keep their -paper names.
#
# At paper size Table 2 and Fig. 6 are read from fig5-paper.csv (the same
# runs), and the readings run: one collector per unit type
# (experiments/kaws-opcoll.spec: opcoll-paper.csv), global loads cached
# (experiments/kaws-l1d.spec: l1d-paper.csv), KA/KAWS without the
# CTA-progress mode (experiments/kaws-age-only.spec, ka_progress=0:
# age-only-paper.csv) and a single-ported collector
# (experiments/kaws-single-port.spec, opcoll_reads_per_cycle=1:
# single-port-paper.csv).
# Then scripts/kaws-tables.py docs/kaws docs/kaws.md refills docs/kaws.md.
# Every sweep resumes where it stopped.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/cpu-total.sh
cpu_total_at_exit kaws-experiments.sh
make -j"$(nproc)" all >/dev/null
mkdir -p docs/kaws results
size=${SIZE:-small}
reuse=()
if [ "$size" = small ]; then
  figs="fig5 table2 fig6 gtx480 density"
else
  figs="fig5 gtx480 density"
fi
skipped() { case " ${SKIP:-} " in *" $1 "*) return 0 ;; esac; return 1; }
for fig in $figs; do
  if skipped "$fig"; then continue; fi
  spec="experiments/kaws-$fig.spec"
  out="results/kaws-$fig"
  csv="docs/kaws/$fig"
  if [ "$size" != small ]; then
    specsize=$size
    if [ "$size" = paper ]; then specsize=paper-kaws; fi
    sed "s/^size small/size $specsize/; s/^name kaws-$fig/name kaws-$fig-$size/" "$spec" > "results/kaws-$fig-$size.spec"
    spec="results/kaws-$fig-$size.spec"
    out="results/kaws-$fig-$size"
    csv="docs/kaws/$fig-$size"
  fi
  build/warpsim sweep "$spec" --out "$out" "${reuse[@]}" "$@"
  build/warpsim collect "$out" --output "$csv.csv"
  build/warpsim report "$out" --output "$csv.html"
  reuse+=(--reuse "$out")
done
if [ "$size" = paper ]; then
  for v in opcoll l1d age-only single-port; do
    if skipped "$v"; then continue; fi
    build/warpsim sweep "experiments/kaws-$v.spec" --out "results/kaws-$v" "$@"
    build/warpsim collect "results/kaws-$v" --output "docs/kaws/$v-paper.csv"
  done
fi
scripts/kaws-tables.py docs/kaws
