#!/usr/bin/env bash
# perturb-ratio.sh -- how much a benchmark's GTO/LRR moves when one latency moves by a few
# cycles, on GPGPU-Sim or on warpsim with the same perturbations, so a ratio target can be
# judged against each simulator's own spread (docs/correlation.md, "GTX1080Ti: bhst's
# GTO/LRR on GPGPU-Sim itself").
#
#   scripts/perturb-ratio.sh gpgpusim OUT.csv GSIM_CFG WARPSIM_CFG SIZE "EXTRA" BENCH OPTION=V1,V2,... [...]
#     GSIM_CFG, WARPSIM_CFG, SIZE, EXTRA, BENCH: as tests/correlation/make-refs.sh takes them
#       (EXTRA: the GPGPU-Sim options the reference was made with); OPTION a GPGPU-Sim option
#       (-gpgpu_l1_latency=78,79), appended after EXTRA (a later option wins)
#   scripts/perturb-ratio.sh warpsim OUT.csv CONFIG SIZE "EXTRA" BENCH PARAM=V1,V2,... [...]
#     build/warpsim run BENCH --size SIZE --config CONFIG EXTRA --set PARAM=V (EXTRA: more
#       warpsim options, e.g. "--set l1d_bank_issue=true"; may be empty)
#
#   OUT.csv: one row per run pair: option, value, lrr cycles, gto cycles, GTO/LRR (cycles LRR /
#   cycles GTO); the first row is the base (option "base").  Resumable: a row already in OUT.csv
#   is not run again.  Each option takes its values one at a time; the summary line gives the
#   mean, sd and range of GTO/LRR over every row.
# env (gpgpusim): GPGPUSIM_ROOT (required), GPGPUSIM_TOOLS (default /work/shared/tools/gpgpusim),
#      RUN_TIMEOUT (seconds per run, default 900); needs build/cuda-hosts/BENCH (make cuda-hosts).
#      A run counts only when the program printed "verification: PASSED".
# env (warpsim): WARPSIM_BIN (default build/warpsim); a run counts when warpsim exits 0 (it
#      checks the benchmark's output against its CPU reference).
# A run that fails is reported and its row left out (exit 1 at the end).  One run at a time, niced.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,29p' "$0"; exit 2; }
sim=${1:-}
case $sim in
  gpgpusim)
    [ $# -ge 7 ] || usage
    out=$2 gcfg=$3 wcfg=$4 size=$5 extra=$6 bench=$7
    shift 7
    root=${GPGPUSIM_ROOT:?set GPGPUSIM_ROOT to the directory rebuild.sh built}
    tools=${GPGPUSIM_TOOLS:-/work/shared/tools/gpgpusim}
    [ -x "build/cuda-hosts/$bench" ] || { echo "perturb-ratio.sh: build/cuda-hosts/$bench missing (make cuda-hosts)" >&2; exit 1; } ;;
  warpsim)
    [ $# -ge 6 ] || usage
    out=$2 wcfg=$3 size=$4 extra=$5 bench=$6
    shift 6
    W=${WARPSIM_BIN:-build/warpsim}
    [ -x "$W" ] || { echo "perturb-ratio.sh: $W missing (make)" >&2; exit 1; } ;;
  *) usage ;;
esac
[ -f "$out" ] || echo "option,value,lrr_cycles,gto_cycles,gto_over_lrr" > "$out"
failed=0

# cycles SCHED OPTION VALUE: the run's simulated cycles, or nothing when it failed
cycles() {
  local run rc=0 c=
  run=$(mktemp -d /tmp/perturb-ratio.XXXXXX)
  if [ "$sim" = gpgpusim ]; then
    local o=""
    [ "$2" != base ] && o="$2 $3"
    GPGPUSIM_ROOT=$root WARPSIM_HOST_CONFIG=$wcfg timeout "${RUN_TIMEOUT:-900}" nice -n 10 \
      "$tools/run.sh" "$gcfg" "$run" "$extra $o -gpgpu_scheduler $1" "$PWD/build/cuda-hosts/$bench" "$size" > /dev/null 2>&1 || rc=$?
    if [ $rc = 0 ] && grep -q "verification: PASSED" "$run/out.txt"; then
      c=$(grep '^gpu_tot_sim_cycle' "$run/out.txt" | tail -1 | awk '{print $3}')
    fi
  else
    local o=()
    [ "$2" != base ] && o=(--set "$2=$3")
    # shellcheck disable=SC2086
    nice -n 10 "$W" run "$bench" --size "$size" --config "$wcfg" $extra ${o[@]+"${o[@]}"} --sched "$1" \
      --stats "$run/stats.json" --quiet > "$run/out.txt" 2>&1 || rc=$?
    if [ $rc = 0 ]; then
      c=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['stats']['cycles'])" "$run/stats.json")
    fi
  fi
  if [ -z "$c" ]; then
    echo "perturb-ratio.sh: $bench $1 $2 $3: exit $rc or no verification; output kept in $run" >&2
    echo ""; return
  fi
  rm -rf "$run"
  echo "$c"
}

one() { # one OPTION VALUE
  local opt=$1 val=$2 l g
  if grep -q "^$opt,$val," "$out"; then echo "$opt $val: kept"; return; fi
  l=$(cycles lrr "$opt" "$val"); g=$(cycles gto "$opt" "$val")
  if [ -z "$l" ] || [ -z "$g" ]; then failed=1; return; fi
  echo "$opt,$val,$l,$g,$(awk -v l="$l" -v g="$g" 'BEGIN { printf "%.4f", l / g }')" >> "$out"
  echo "$opt $val: LRR $l, GTO $g"
}

one base -
for spec in "$@"; do
  opt=${spec%%=*}
  vals=${spec#*=}
  [ "$opt" != "$spec" ] || { echo "perturb-ratio.sh: $spec: want OPTION=V1,V2,..." >&2; exit 2; }
  for v in ${vals//,/ }; do one "$opt" "$v"; done
done
awk -F, 'NR > 1 { n++; s += $5; q += $5 * $5; if (min == "" || $5 < min) min = $5; if ($5 > max) max = $5 }
  END { if (n) { m = s / n; sd = (n > 1) ? sqrt((q - n * m * m) / (n - 1)) : 0
        printf "%d pairs: GTO/LRR mean %.4f, sd %.4f, range %.4f-%.4f\n", n, m, sd, min, max } }' "$out"
exit $failed
