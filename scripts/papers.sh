#!/usr/bin/env bash
# papers.sh -- regenerate every paper result the docs report, in resumable
# parts, and say what each part cost: the one command to rerun after a change
# that moves the model (then `make check-results` pins the new numbers).
#
#   scripts/papers.sh --list                  # the parts, their sizes and the command each runs
#   scripts/papers.sh [--jobs N] [PART...]    # run the parts (default: the first seven below, in order)
#
# Each part is one paper's experiment script at one size (below); the last two
# (every BOWS and DWR figure at paper size, many hours on 2 cores: on a 16-core
# machine, --jobs 16) run only when named.  Every sweep
# in it resumes where it stopped, so an interrupted part is rerun with the same
# command.  After the parts, each touched paper's page is refilled from its
# CSVs (scripts/PAPER-tables.py, as scripts/docs-tables-check.sh checks).
# Every part's output goes to results/papers/PART.log, and one line per part
# run is appended to results/papers/times.csv: part, commit, jobs, wall seconds
# and CPU seconds (user + system of the part and every simulation it ran),
# the figures the README's per-paper cost table is made of.
#
# --jobs N runs N simulations at a time (default 1; on a 16-core machine 16).
# PAPERS_PARTS=FILE reads the parts from FILE (same format as below) instead:
# for the tests (tests/reliability/test_papers.sh); PAPERS_OUT=DIR puts the logs
# and times.csv in DIR instead of results/papers.
set -euo pipefail
cd "$(dirname "$0")/.."

# part | paper | size | what it writes | command (run with JOBS set)
parts() {
  if [ -n "${PAPERS_PARTS:-}" ]; then
    cat "$PAPERS_PARTS"
    return
  fi
  cat <<'EOF'
baws|baws|paper|docs/baws/*.csv, Figs. 3/4/6 timelines, docs/characterization.md|scripts/baws-experiments.sh --jobs "$JOBS" && scripts/baws-timelines.py --out docs/baws
bows-small|bows|small|docs/bows/{fig2,fig9,...,table1-*}.csv (Figs. 2, 9-16, Table I)|scripts/bows-experiments.sh --size small --jobs "$JOBS"
bows-paper|bows|paper|docs/bows/fig9-paper.csv (the whole Fig. 9 grid), its subsets fig9-paper-{fast,ht,gto}.csv, adaptive-paper.csv, fig{10,14,16}-paper.csv, fig15-paper.csv (GTX1080Ti), table1-{h,m,t,l,sh}-paper.csv (Table I)|scripts/bows-experiments.sh --paper-sets --jobs "$JOBS"
kaws-small|kaws|small|docs/kaws/{fig5,table2,fig6,gtx480,density}.csv|scripts/kaws-experiments.sh --jobs "$JOBS"
kaws-paper|kaws|paper|docs/kaws/*-paper.csv|SIZE=paper scripts/kaws-experiments.sh --jobs "$JOBS"
dwr-small|dwr|small|docs/dwr/*-small.csv (Figs. 1, 2, 4, 5a-c)|scripts/dwr-experiments.sh small --jobs "$JOBS"
dwr-paper|dwr|paper|docs/dwr/fig4-paper-{rest,subset,mp}.csv|scripts/dwr-fig4-paper.sh
bows-paper-figs|bows|paper|only when named: every BOWS figure and Table I at paper size, into the CSVs bows-small writes (many hours on 2 cores)|scripts/bows-experiments.sh --size paper --jobs "$JOBS"
dwr-paper-figs|dwr|paper|only when named: DWR Figs. 1, 2, 4, 5a-c at paper size, docs/dwr/*-paper.csv (Fig. 4 reuses dwr-paper's runs)|r=(); for d in results/dwr-fig4-paper-*; do [ -d "$d" ] && r+=(--reuse "$d"); done; scripts/dwr-experiments.sh paper --jobs "$JOBS" "${r[@]}"
EOF
}

usage() {
  echo "usage: scripts/papers.sh [--list] [--jobs N] [PART...]   (parts: $(parts | cut -d'|' -f1 | tr '\n' ' '))" >&2
  exit 2
}

JOBS=1
list=0
want=()
while [ $# -gt 0 ]; do
  case "$1" in
    --list) list=1; shift ;;
    --jobs) [ $# -ge 2 ] || usage; JOBS=$2; shift 2 ;;
    --jobs=*) JOBS=${1#--jobs=}; shift ;;
    -h|--help) usage ;;
    -*) echo "papers.sh: unknown option $1" >&2; usage ;;
    *) want+=("$1"); shift ;;
  esac
done
case $JOBS in '' | *[!0-9]* | 0) echo "papers.sh: --jobs needs a positive integer, not '$JOBS'" >&2; exit 2 ;; esac
export JOBS

if [ "$list" = 1 ]; then
  printf '%-15s %-5s %-6s %s\n' part paper size writes
  parts | while IFS='|' read -r name paper size writes cmd; do
    printf '%-15s %-5s %-6s %s\n%22s$ %s\n' "$name" "$paper" "$size" "$writes" "" "$cmd"
  done
  exit 0
fi

known=" $(parts | cut -d'|' -f1 | tr '\n' ' ') "
if [ ${#want[@]} -eq 0 ]; then
  # the default set: what the docs report today (the *-figs parts run only when named)
  read -r -a want <<< "$(parts | grep -v '|only when named' | cut -d'|' -f1 | tr '\n' ' ')"
fi
for p in "${want[@]}"; do
  [[ $known == *" $p "* ]] || { echo "papers.sh: no part '$p' (parts:$known)" >&2; exit 2; }
done

scripts/setup.sh
make -j"$(nproc)" all >/dev/null
out=${PAPERS_OUT:-results/papers}
mkdir -p "$out"
[ -f "$out/times.csv" ] || echo "part,commit,jobs,wall_s,cpu_s,date" > "$out/times.csv"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- src bench configs 2>/dev/null || commit="$commit-dirty"

failed=()
papers_done=" "
for p in "${want[@]}"; do
  line=$(parts | grep "^$p|")
  IFS='|' read -r name paper size writes cmd <<< "$line"
  log=$out/$name.log
  echo "== $name ($paper, $size): $writes"
  echo "   log: $log"
  # run the part; wall seconds and the CPU seconds (user + system) of it and of every
  # simulation it ran (each is waited for, so its time reaches the part's rusage)
  read -r rc wall cpu < <(python3 - "$cmd" "$log" <<'PY'
import resource, subprocess, sys, time
t = time.time()
with open(sys.argv[2], "w") as log:
    rc = subprocess.call(["bash", "-c", sys.argv[1]], stdout=log, stderr=subprocess.STDOUT)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(rc, f"{time.time() - t:.2f}", f"{r.ru_utime + r.ru_stime:.2f}")
PY
)
  echo "$name,$commit,$JOBS,$wall,$cpu,$(date -u +%F)" >> "$out/times.csv"
  if [ "$rc" != 0 ]; then
    echo "   FAILED (exit $rc): the end of $log:"
    tail -5 "$log" | sed 's/^/   | /'
    failed+=("$name")
  else
    echo "   done: ${wall} s wall, ${cpu} s CPU"
  fi
  [[ $papers_done == *" $paper "* ]] || papers_done+="$paper "
done

for paper in $papers_done; do
  [ -f "scripts/$paper-tables.py" ] || continue   # a test's parts file names no paper
  case $paper in
    dwr) args=(docs/dwr headline docs/dwr.md) ;;
    *) args=("docs/$paper" "docs/$paper.md") ;;
  esac
  python3 "scripts/$paper-tables.py" "${args[@]}" > "$out/$paper-tables.log" 2>&1 ||
    { echo "papers.sh: scripts/$paper-tables.py failed ($out/$paper-tables.log)" >&2; failed+=("$paper-tables"); }
done
echo "cost of each part: $out/times.csv"
if [ ${#failed[@]} -gt 0 ]; then
  echo "papers.sh: not done: ${failed[*]} (rerun the same command to resume)" >&2
  exit 1
fi
echo "done; now: make check-results"
