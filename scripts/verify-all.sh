#!/usr/bin/env bash
# verify-all.sh -- every bundled benchmark at every size (tiny, small, paper)
# under the functional model and under every warp-scheduling policy of the
# timing model, through `warpsim sweep` (parallel, resumable: rerun to
# continue).  Long: about an hour on 2 cores.  Results: results/verify-all*.
# Each job passes only if the benchmark's CPU-reference check passes.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
make -j"$(nproc)" all >/dev/null
benches=$(build/warpsim list | awk 'NR > 1 { print $1 }' | tr '\n' ' ')
policies=$(build/warpsim policies --names)
spec=$(mktemp --suffix=.spec)
trap 'rm -f "$spec"' EXIT
printf 'name verify-all-functional\nbench %s\nsize tiny small paper\nconfig configs/gtx480.cfg\nfixed mode=functional\n' \
  "$benches" > "$spec"
rc=0
build/warpsim sweep "$spec" --out results/verify-all-functional "$@" || rc=1
printf 'name verify-all-timing\nbench %s\nsize tiny small paper\nconfig configs/gtx480.cfg\nsched %s\n' \
  "$benches" "$policies" > "$spec"
build/warpsim sweep "$spec" --out results/verify-all-timing "$@" || rc=1
exit $rc
