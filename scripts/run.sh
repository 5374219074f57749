#!/usr/bin/env bash
# run.sh -- the main job: install build dependencies, build warpsim, and run
# a benchmark (default: the BAWS paper's scalar product) verifying its result.
#   scripts/run.sh [BENCH] [warpsim run options...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
make -j"$(nproc)" all >/dev/null
bench=${1:-sp}; shift || true
exec build/warpsim run "$bench" "$@"
