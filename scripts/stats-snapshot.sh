#!/usr/bin/env bash
# stats-snapshot.sh -- the whole statistics JSON of every bundled benchmark
# under every policy, fetch policy and GPU config, for checking that a
# refactoring leaves the model bit-identical (the golden files pin a few keys
# of a few runs; this pins every counter of ~1000 runs).
#
#   scripts/stats-snapshot.sh DIR            write DIR/<bench>@<combo>.json
#   scripts/stats-snapshot.sh DIR REFDIR     ... and compare with REFDIR: exit 1
#                                            and name the first differing key
#                                            of each run that differs
# WARPSIM_BIN (default build/warpsim), SNAP_SIZE (default tiny), SNAP_JOBS
# (default: cores) choose the binary, input size and parallelism; SNAP_CONFIG=FILE
# runs the combos that name no --config with --config FILE (e.g. configs/gtx480.cfg,
# which the built-in defaults equal: its snapshot compares equal to one without).  Keys only the
# new runs have are ignored when they are parameters (added since the reference)
# or counters that stayed 0, and so is config_hash (it hashes /config, which is
# compared key by key); SNAP_STRICT=1 compares everything.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: $0 DIR [REFDIR]}
ref=${2:-}
bin=${WARPSIM_BIN:-build/warpsim}
size=${SNAP_SIZE:-tiny}
jobs=${SNAP_JOBS:-$(nproc)}
config=${SNAP_CONFIG:-}
mkdir -p "$out"
# combo name | arguments
combos=(
  "lrr|--sched lrr" "gto|--sched gto" "tls|--sched tls" "gto-rotate|--sched gto-rotate"
  "mwf-lrr|--sched mwf-lrr" "mwf-gto|--sched mwf-gto" "saws|--sched saws" "cawa|--sched cawa"
  "ka|--sched ka" "kaws|--sched kaws" "gto-share|--sched gto --set warp_sharing=1"
  "bows-gto|--sched bows:gto" "bows-lrr|--sched bows:lrr" "bows-cawa|--sched bows:cawa" "ddos-gto|--sched ddos:gto"
  "mwf-gto-cff|--sched mwf-gto --fetch cff" "mwf-lrr-cff|--sched mwf-lrr --fetch cff" "gto-fef|--sched gto --fetch fef"
  "gto-nosleep|--sched gto --set sleep=false" "gto-t2|--sched gto --threads 2"
  "titanx-gto|--config configs/titanx-pascal.cfg --sched gto" "titanx-kaws|--config configs/titanx-pascal.cfg --sched kaws"
  "titanx-ka|--config configs/titanx-pascal.cfg --sched ka"
  "1080ti-bows|--config configs/gtx1080ti.cfg --sched bows:gto" "1080ti-lrr|--config configs/gtx1080ti.cfg --sched lrr"
  "tesla|--config configs/tesla-dwr.cfg"
  "tesla-ws8|--config configs/tesla-dwr.cfg --set warp_size=8"
  "tesla-dwr64|--config configs/tesla-dwr.cfg --set warp_size=8 --set dwr_max_warp=64 --set dwr_sync_timeout=2000"
  "tesla-dwr32-arr|--config configs/tesla-dwr.cfg --set warp_size=8 --set dwr_max_warp=32 --set dwr_ilt_arrival=true --set dwr_sync_timeout=2000"
)
benches=$("$bin" list | awk 'NR > 1 {print $1}')
jobfile=$(mktemp)
trap 'rm -f "$jobfile"' EXIT
for b in $benches; do
  for c in "${combos[@]}"; do
    args=${c#*|}
    [ -z "$config" ] || [[ "$args" == *--config* ]] || args="--config $config $args"
    printf '%s\t%s\t%s\n' "$b" "${c%%|*}" "$args" >> "$jobfile"
  done
done
export bin size out
run_one() {
  local b=$1 name=$2 args=$3
  local f="$out/$b@$name.json"
  # shellcheck disable=SC2086
  local rc=0
  timeout 300 "$bin" run "$b" --size "$size" --quiet $args --stats "$f" > "$out/$b@$name.log" 2>&1 || rc=$?
  [ "$rc" -eq 0 ] || echo "exit status $rc" >> "$out/$b@$name.log"
}
export -f run_one
tr '\t' '\037' < "$jobfile" | xargs -P "$jobs" -d '\n' -I{} bash -c 'IFS=$'"'"'\037'"'"' read -r b n a <<< "{}"; run_one "$b" "$n" "$a"'
n=$(ls "$out"/*.json 2>/dev/null | wc -l)
echo "stats-snapshot: $n statistics files in $out"
[ -n "$ref" ] || exit 0
python3 - "$out" "$ref" <<'PY'
import json, os, sys
out, ref = sys.argv[1], sys.argv[2]
strict = os.environ.get("SNAP_STRICT") == "1"
added = set()
def tolerated(path, k, v):
    """A key only the new run has that cannot change a statistic: a parameter added since the
    reference (under /config; its effect shows in every counter anyway) or a counter that stayed 0."""
    if strict:
        return False
    if path == "/config" or (path in ("/stats", "/derived") and v in (0, 0.0)):
        added.add(f"{path}/{k}")
        return True
    return False
def first_diff(a, b, path=""):
    if type(a) != type(b):
        return path or "/"
    if isinstance(a, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k in a and k not in b and tolerated(path, k, a[k]):
                continue
            if k not in a or k not in b:
                return f"{path}/{k} (only in {'new' if k in a else 'reference'})"
            if path == "" and k == "config_hash" and not strict:
                continue  # the hash of /config, compared key by key above it
            d = first_diff(a[k], b[k], f"{path}/{k}")
            if d:
                return d
        if [k for k in a if k in b] != [k for k in b if k in a]:
            return f"{path} (key order)"
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path} (length {len(a)} vs {len(b)})"
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} vs reference {b!r}"
names = sorted(set(f for f in os.listdir(ref) if f.endswith((".json", ".log"))) |
               set(f for f in os.listdir(out) if f.endswith((".json", ".log"))))
bad = 0
for f in names:
    p, q = os.path.join(out, f), os.path.join(ref, f)
    if not os.path.exists(p) or not os.path.exists(q):
        print(f"DIFF {f}: only in {'reference' if os.path.exists(q) else 'new'}")
        bad += 1
        continue
    if f.endswith(".log"):
        continue  # logs carry host speed; runs that failed are compared through their exit line below
    a, b = json.load(open(p)), json.load(open(q))
    d = first_diff(a, b)
    if d:
        print(f"DIFF {f}: {d}")
        bad += 1
for f in names:
    if f.endswith(".log"):
        p, q = os.path.join(out, f), os.path.join(ref, f)
        if os.path.exists(p) and os.path.exists(q):
            ea = [l for l in open(p) if l.startswith(("exit status", "error", "verification"))]
            eb = [l for l in open(q) if l.startswith(("exit status", "error", "verification"))]
            if ea != eb:
                print(f"DIFF {f}: outcome {ea!r} vs reference {eb!r}")
                bad += 1
if added:
    print(f"stats-snapshot: keys only the new runs have, ignored (SNAP_STRICT=1 counts them): {' '.join(sorted(added))}")
print(f"stats-snapshot: {len(names)} files compared, {bad} differ")
sys.exit(1 if bad else 0)
PY
