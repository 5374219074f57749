#!/usr/bin/env bash
# ht-contention.sh -- does the BOWS suite's ht make progress at paper size
# under heavy lock contention (few buckets, BOWS Fig. 16), on GPGPU-Sim and
# on warpsim?  docs/bows.md, "HT at 16, 64 and 256 buckets: GPGPU-Sim's
# livelock too".
#
#   scripts/ht-contention.sh gpgpusim OUT.csv [BUCKETS...]
#     runs build/cuda-hosts/ht (make cuda-hosts) at size paper on GPGPU-Sim's
#     SM2_GTX480 with LRR, each bucket count stopped at each of $CAPS cycles
#     (-gpgpu_max_cycle); a row per (buckets, cap): thread-level global
#     stores (gpgpu_n_store_insn), atomic packets sent, L1D miss-queue-full
#     reservation fails, simulated instructions.  Stores that stop growing
#     between two caps while atomics go on: the lock holders are starved.
#   scripts/ht-contention.sh warpsim OUT.csv [BUCKETS...]
#     build/warpsim run ht --size paper --set ht_buckets=B --sched lrr on
#     configs/gtx480.cfg: a row per bucket count: finished (cycles) or the
#     livelock report's cycle, thread-level global stores, L2 atomics.
#
# BUCKETS default: 16 64 256 1024.  Resumable: a row already in OUT.csv is not
# run again.
# env: CAPS (gpgpusim; default "300000 1000000"), GPGPUSIM_ROOT (required for
#      gpgpusim), GPGPUSIM_TOOLS (default /work/shared/tools/gpgpusim),
#      WARPSIM_BIN (default build/warpsim), RUN_TIMEOUT (seconds per run,
#      default 3600).  One run at a time, niced.
# Cost (2-core machine): GPGPU-Sim about 10,000 cycles/s here, so 0.5-3 min
# per capped run; warpsim 6-12 s per livelocked run (its livelock_cycles
# window is 10M cycles), 3-4 min at 256 buckets, 30 s at 1024.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,28p' "$0"; exit 2; }
[ $# -ge 2 ] || usage
sim=$1 out=$2
shift 2
buckets=("$@")
[ ${#buckets[@]} -gt 0 ] || buckets=(16 64 256 1024)
tmo=${RUN_TIMEOUT:-3600}
case $sim in
  gpgpusim)
    root=${GPGPUSIM_ROOT:?set GPGPUSIM_ROOT to the directory rebuild.sh built}
    tools=${GPGPUSIM_TOOLS:-/work/shared/tools/gpgpusim}
    [ -x build/cuda-hosts/ht ] || { echo "ht-contention.sh: build/cuda-hosts/ht missing (make cuda-hosts)" >&2; exit 1; }
    [ -f "$out" ] || echo "buckets,cap_cycles,cycles,thread_insts,global_stores,atomic_packets,l1d_miss_queue_full" > "$out"
    for b in "${buckets[@]}"; do
      for cap in ${CAPS:-300000 1000000}; do
        if grep -q "^$b,$cap," "$out"; then echo "gpgpusim $b buckets, cap $cap: kept"; continue; fi
        run=$(mktemp -d /tmp/ht-contention.XXXXXX)
        rc=0
        WARPSIM_SET="ht_buckets=$b" GPGPUSIM_ROOT=$root WARPSIM_HOST_CONFIG=gtx480 timeout "$tmo" nice -n 10 \
          "$tools/run.sh" SM2_GTX480 "$run" "-gpgpu_scheduler lrr -gpgpu_max_cycle $cap" \
          "$PWD/build/cuda-hosts/ht" paper > /dev/null 2>&1 || rc=$?
        f=$run/out.txt
        # a capped run exits non-zero (its check finds the table unfinished); it counts when
        # GPGPU-Sim reports reaching the cap or the program verified
        if ! grep -q "reaching the maximum cycles\|verification: PASSED" "$f" 2>/dev/null; then
          echo "ht-contention.sh: gpgpusim $b buckets cap $cap: exit $rc, no cap or verification; output kept in $run" >&2
          continue
        fi
        val() { awk -v re="$1" '$0 ~ re { v = $3 } END { print v }' "$f"; }
        cyc=$(val '^gpu_sim_cycle')
        insn=$(val '^gpu_sim_insn')
        st=$(val '^gpgpu_n_store_insn')
        at=$(awk '/traffic_breakdown_coretomem\[GLOBAL_ATOMIC\]/ { v = $0; sub(/.*\{[0-9]*:/, "", v); sub(/,.*/, "", v) }
                  END { print v + 0 }' "$f")
        mq=$(awk '/Total_core_cache_fail_stats_breakdown\[GLOBAL_ACC_[RW]\]\[MISS_QUEUE_FULL\]/ { s[$1] = $NF }
                  END { for (k in s) t += s[k]; print t + 0 }' "$f")
        echo "$b,$cap,$cyc,$insn,$st,${at:-0},$mq" | tee -a "$out"
        rm -rf "$run"
      done
    done ;;
  warpsim)
    W=${WARPSIM_BIN:-build/warpsim}
    [ -x "$W" ] || { echo "ht-contention.sh: $W missing (make)" >&2; exit 1; }
    [ -f "$out" ] || echo "buckets,outcome,cycles,thread_insts,global_stores,l2_atomics" > "$out"
    for b in "${buckets[@]}"; do
      if grep -q "^$b," "$out"; then echo "warpsim $b buckets: kept"; continue; fi
      run=$(mktemp -d /tmp/ht-contention.XXXXXX)
      rc=0
      timeout "$tmo" nice -n 10 "$W" run ht --size paper --config configs/gtx480.cfg --set "ht_buckets=$b" \
        --sched lrr > "$run/out.txt" 2>&1 || rc=$?
      f=$run/out.txt
      stat() { awk -v k="$1" '$1 == k { print $2; exit }' "$f"; }
      if grep -q "verification: PASSED" "$f"; then
        outcome=finished cyc=$(stat cycles)
      elif grep -q "livelocked" "$f"; then
        outcome=livelock cyc=$(grep -o 'cycles (cycle [0-9]*' "$f" | head -1 | grep -o '[0-9]*$')
      else
        echo "ht-contention.sh: warpsim $b buckets: exit $rc, neither finished nor livelocked; output kept in $run" >&2
        continue
      fi
      echo "$b,$outcome,$cyc,$(stat thread_insts),$(stat global_stores),$(stat l2_atomics)" | tee -a "$out"
      rm -rf "$run"
    done ;;
  *) usage ;;
esac
