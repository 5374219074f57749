#!/usr/bin/env bash
# correlate.sh -- warpsim against GPGPU-Sim on the reference set (tests/correlation/gpgpusim/):
# writes docs/correlation/correlation.{md,csv,svg} and checks the targets of docs/correlation.md
# (every run within 15% of GPGPU-Sim's cycles, every GTO/LRR speedup within 0.05; the
# benchmarks after --known have a documented difference).  About 20 s on 2 cores.
#   scripts/correlate.sh [--jobs N] [--set KEY=VALUE ...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
make -j"$(nproc)" all >/dev/null
refs=(tests/correlation/gpgpusim/*_lrr tests/correlation/gpgpusim/*_gto)
build/warpsim correlate "${refs[@]}" --out docs/correlation --quiet \
  --max-cycle-error 15 --max-ratio-error 0.05 --known fwt "$@"
