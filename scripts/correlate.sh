#!/usr/bin/env bash
# correlate.sh -- warpsim against GPGPU-Sim on the reference sets (tests/correlation/*/):
# writes docs/correlation/correlation.{md,csv,svg} (GTX480) and docs/correlation/CONFIG/HALF/
# (TITAN X, GTX1080Ti) and checks the targets / bounds of docs/correlation.md
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
# the other configurations, each half of each suite on its own: docs/correlation/CONFIG/HALF/
# (tests/correlation/check.sh: the bounds of their correlate.conf, the issue's targets printed)
tests/correlation/check.sh --out docs/correlation titanx-pascal gtx1080ti -- "$@"
