#!/usr/bin/env bash
# test.sh -- the test command: installs build dependencies, builds, and runs
# the whole test suite (ends with "N passed, N failed").
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
make -j"$(nproc)" all
make -j"$(nproc)" test
