#!/usr/bin/env bash
# run.sh -- the main job: install build dependencies, build warpsim, and run
# a benchmark (default: the BAWS paper's scalar product) verifying its result.
#   scripts/run.sh [BENCH] [warpsim run options...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# the build shows what it does (a first build takes a minute or two): one
# line per compiled file here, the whole compiler output in build/make.log
mkdir -p build
echo "run.sh: building warpsim (log: build/make.log)"
if ! make -j"$(nproc)" all 2>&1 | tee build/make.log | sed -un 's/.* -c \([^ ]*\) .*/  cc \1/p'; then
  tail -n 40 build/make.log >&2
  echo "run.sh: the build failed (whole log: build/make.log)" >&2
  exit 1
fi
echo "run.sh: built"
bench=${1:-sp}; shift || true
exec build/warpsim run "$bench" "$@"
