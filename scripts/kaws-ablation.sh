#!/usr/bin/env bash
# kaws-ablation.sh -- KAWS readings that no parameter gives (issue 24 item 3),
# each run with a patched copy of HEAD; the tree's model is not changed:
#   age-only     src/sched/ka.c: the last-CTA event no longer switches KA to
#                CTA-progress order (KA and KAWS stay in age order);
#                experiments/kaws-age-only.spec -> docs/kaws/age-only-paper.csv
#   single-port  src/core/opcoll.c: an operand collector reads one source
#                operand per cycle (the paper's single-ported OCU, Sec. 2.1;
#                warpsim's collector reads every operand whose bank is free in
#                the same cycle); experiments/kaws-single-port.spec ->
#                docs/kaws/single-port-paper.csv
# For each it exports HEAD (committed files only) to a temporary directory,
# applies the patch there (failing if the patched line has changed), builds
# that copy's warpsim and runs the spec with it (resumable:
# results/kaws-VARIANT), then collects the CSV.  Arguments after the variant
# names go to `warpsim sweep`.
#   scripts/kaws-ablation.sh [age-only] [single-port] [--jobs N]     # default: both
set -euo pipefail
cd "$(dirname "$0")/.."
variants=()
while [ $# -gt 0 ] && [[ $1 != -* ]]; do variants+=("$1"); shift; done
[ ${#variants[@]} -gt 0 ] || variants=(age-only single-port)
mkdir -p results docs/kaws
for v in "${variants[@]}"; do
  case $v in
    age-only) file=src/sched/ka.c; from='s->progress_mode = true;'; to='(void)s; /* kaws-ablation.sh: age order only */' ;;
    single-port) file=src/core/opcoll.c; from='c->op.reads_left--;'; to='c->op.reads_left--; break; /* kaws-ablation.sh: one read per cycle */' ;;
    *) echo "kaws-ablation: unknown variant '$v' (age-only, single-port)" >&2; exit 2 ;;
  esac
  src=${TMPDIR:-/tmp}/warpsim-kaws-$v
  rm -rf "$src"
  mkdir -p "$src"
  git archive HEAD | tar -x -C "$src"
  [ "$(grep -cF "$from" "$src/$file")" = 1 ] || { echo "kaws-ablation: $file changed: '$from' is not there once" >&2; exit 1; }
  python3 -c 'import sys; p, a, b = sys.argv[1:]; s = open(p).read(); open(p, "w").write(s.replace(a, b))' \
    "$src/$file" "$from" "$to"
  make -C "$src" -j2 build/warpsim >/dev/null
  "$src/build/warpsim" sweep "experiments/kaws-$v.spec" --out "results/kaws-$v" "$@"
  "$src/build/warpsim" collect "results/kaws-$v" --output "docs/kaws/$v-paper.csv"
done
