#!/bin/sh
# workloads-nvcc.sh -- the nvcc that scripts/workloads.py gives scripts/suites.sh:
# the real one ($WORKLOADS_NVCC, else nvcc) with --no-compress added, so the PTX in
# each program's fat binary is plain text that workloads.py can read for its static
# counts (barriers, global-memory instructions).  The code is the same: only the
# fat binary's compression differs, and warpsim runs the same PTX either way.
exec "${WORKLOADS_NVCC:-nvcc}" --no-compress "$@"
