#!/usr/bin/env bash
# correlate.sh -- warpsim against GPGPU-Sim on every configuration's reference set
# (tests/correlation/*/, docs/correlation.md): writes docs/correlation/CONFIG/HALF/
# correlation.{md,csv,svg} for the fitted and held-out half of each suite and checks each
# half against the bounds of its tests/correlation/CONFIG/correlate.conf (the GTX480's
# fitted half: every run within 15% of GPGPU-Sim's cycles, every GTO/LRR speedup within
# 0.05, fwt's documented; the others: regression bounds), printing the issue's targets met
# or not (tests/correlation/check.sh, which CI runs).  About a minute on 2 cores.
#   scripts/correlate.sh [--jobs N] [--set KEY=VALUE ...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
make -j"$(nproc)" all >/dev/null
tests/correlation/check.sh --out docs/correlation -- "$@"
