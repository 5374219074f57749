#!/usr/bin/env bash
# tests/reliability/test_outputs.sh -- nothing lost, nothing silent: the
# cases of issue 26 that need several processes, a killed process or a full
# disk, run for real.
#   1. two sweeps in one directory at once: the second is refused (naming the
#      owner), the first finishes with every job done and no .failed file;
#   2. ten `warpsim run --stats same.json` at once: the file is one complete,
#      valid JSON document and no temporary is left; a run killed before its
#      end leaves neither the file nor a temporary;
#   3. SIGKILL of a sweep: its running jobs die with it (no `warpsim run` of
#      that directory survives), the lock is free at once, and the resumed
#      sweep removes the partial files and finishes every job;
#   4. an unwritable output path fails before the simulation, with the reason;
#   5. a full disk (a 192 KiB tmpfs; skipped where mount is not allowed):
#      `run --stats` names ENOSPC and leaves nothing; a sweep names it, stops
#      launching jobs, says how many failures it could not record, and
#      `collect` still writes its table;
#   6. two `warpsim cuda --stats same.jsonl` at once (2000 launches each):
#      every record of both is in the file, whole, once, in each run's order,
#      after the line that was there before (the file is appended to);
#   7. the simulator rebuilt while a sweep runs (its file replaced by one that
#      fails): the sweep's later jobs still run the executable it started
#      with, and all finish.
# Prints "N passed, N failed" last; exit 0 only if none failed.  Every wait
# has a deadline.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
W=${WARPSIM_BIN:-build/warpsim}
case $W in /*) ;; *) W=$ROOT/$W ;; esac
T=$(mktemp -d /tmp/warpsim-rel.XXXXXX)
MNT=""
cleanup() {
	[ -n "$MNT" ] && umount "$MNT" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
[ -n "${KEEP:-}" ] && trap - EXIT
pass=0 fail=0 skip=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
skipped() { echo "skip $*"; skip=$((skip + 1)); }
json_ok() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }
# wait_until SECONDS CMD...: poll CMD every 0.1 s; 0 when it succeeded in time
wait_until() {
	local end=$((SECONDS + $1))
	shift
	while [ $SECONDS -le $end ]; do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}
runs_in() { pgrep -f -- "--stats $1/jobs/" >/dev/null; }
no_runs_in() { ! runs_in "$1"; }

# a sweep of jobs that take a few seconds each (mm at paper size)
cat > "$T/slow.spec" <<SPEC
name slow
bench mm
size paper
config $ROOT/configs/gtx480.cfg
sched lrr gto tls gto-rotate
SPEC
cat > "$T/fast.spec" <<SPEC
name fast
bench sp vecadd histo
size tiny
config $ROOT/configs/gtx480.cfg
sched lrr gto
SPEC

# ---- 1. two sweeps, one directory
"$W" sweep "$T/slow.spec" --out "$T/s1" --jobs 2 --quiet > "$T/s1a.out" 2>&1 &
A=$!
wait_until 30 runs_in "$T/s1" || true
"$W" sweep "$T/slow.spec" --out "$T/s1" --jobs 2 --quiet > "$T/s1b.out" 2>&1
rb=$?
wait $A
ra=$?
if [ $rb -ne 0 ] && grep -q "in use by another sweep (pid $A on" "$T/s1b.out" && [ $ra -eq 0 ] &&
	[ "$(ls "$T/s1/jobs/"*.json 2>/dev/null | wc -l)" -eq 4 ] && ! ls "$T/s1/jobs/"*.failed >/dev/null 2>&1; then
	ok "concurrent sweeps: the second is refused, the first completes (4 of 4 jobs, no .failed)"
else
	bad "concurrent sweeps: second exit $rb, first exit $ra; second said: $(head -c 300 "$T/s1b.out")"
fi

# ---- 2. ten writers of one --stats file
for i in $(seq 10); do
	"$W" run sp --size tiny --quiet --sched gto --stats "$T/same.json" > /dev/null 2>&1 &
done
wait
if json_ok "$T/same.json" && [ -z "$(ls "$T" | grep 'same.json.tmp')" ]; then
	ok "ten concurrent --stats writers: one complete JSON file, no temporaries left"
else
	bad "ten concurrent --stats writers: $(ls "$T" | grep same | tr '\n' ' ')"
fi

# ---- 2b. a run killed while it writes nothing yet leaves nothing behind
"$W" run mm --size paper --quiet --stats "$T/killed.json" > /dev/null 2>&1 &
A=$!
sleep 1
kill -KILL $A 2>/dev/null
wait $A 2>/dev/null
if [ -z "$(ls "$T" | grep killed)" ]; then
	ok "a run killed before its end leaves no output file and no temporary"
else
	bad "a killed run left: $(ls "$T" | grep killed | tr '\n' ' ')"
fi

# ---- 3. SIGKILL of a sweep
"$W" sweep "$T/slow.spec" --out "$T/s3" --jobs 2 --quiet > "$T/s3a.out" 2>&1 &
A=$!
if wait_until 30 runs_in "$T/s3"; then
	sleep 0.5
	kill -KILL $A
	wait $A 2>/dev/null
	if wait_until 5 no_runs_in "$T/s3"; then
		ok "SIGKILL of a sweep: its running jobs died with it"
	else
		bad "SIGKILL of a sweep: jobs still running 5 s later: $(pgrep -af -- "--stats $T/s3/jobs/" | head -2)"
		pkill -KILL -f -- "--stats $T/s3/jobs/"
	fi
	# a leftover partial file, as a job killed while writing would leave one
	: > "$T/s3/jobs/leftover.json.part"
	"$W" sweep "$T/slow.spec" --out "$T/s3" --jobs 2 > "$T/s3b.out" 2>&1
	rb=$?
	if [ $rb -eq 0 ] && grep -q "removed [0-9]* partial file" "$T/s3b.out" &&
		[ "$(ls "$T/s3/jobs/"*.json | wc -l)" -eq 4 ] && ! ls "$T/s3/jobs/"*.part >/dev/null 2>&1; then
		ok "resume after SIGKILL: the lock was free, partial files removed, 4 of 4 jobs done"
	else
		bad "resume after SIGKILL: exit $rb: $(tail -c 400 "$T/s3b.out")"
	fi
else
	bad "SIGKILL of a sweep: no job started within 30 s"
	kill -KILL $A 2>/dev/null
fi

# ---- 4. unwritable output paths fail before the work, with the reason
: > "$T/afile"
start=$SECONDS
out=$("$W" run mm --size paper --quiet --stats "$T/afile/x.json" 2>&1)
r=$?
if [ $r -eq 1 ] && echo "$out" | grep -q "Not a directory" && ! echo "$out" | grep -q "verification" &&
	[ $((SECONDS - start)) -lt 3 ]; then
	ok "run --stats into a path under a file: refused before simulating (Not a directory)"
else
	bad "run --stats into a path under a file: exit $r: $out"
fi
out=$("$W" run sp --size tiny --quiet --timeline "$T/nodir/t.svg" 2>&1)
r=$?
if [ $r -eq 1 ] && echo "$out" | grep -q "No such file or directory" && ! echo "$out" | grep -q verification; then
	ok "run --timeline into a missing directory: refused before simulating (No such file or directory)"
else
	bad "run --timeline into a missing directory: exit $r: $out"
fi

# ---- 5. a full disk
mkdir -p "$T/full"
if mount -t tmpfs -o size=192k tmpfs "$T/full" 2>/dev/null; then
	MNT="$T/full"
	head -c 1000000 /dev/zero > "$T/full/filler" 2>/dev/null
	out=$("$W" run sp --size tiny --quiet --stats "$T/full/s.json" 2>&1)
	r=$?
	if [ $r -eq 1 ] && echo "$out" | grep -q "No space left on device" && [ -z "$(ls "$T/full" | grep -v filler)" ]; then
		ok "run --stats on a full disk: names ENOSPC, leaves no file"
	else
		bad "run --stats on a full disk: exit $r: $(echo "$out" | tail -2); left: $(ls "$T/full")"
	fi
	rm -f "$T/full/filler"
	# the disk fills up while the sweep's first job runs
	"$W" sweep "$T/slow.spec" --out "$T/full/sw" --jobs 1 > "$T/s5.out" 2>&1 &
	A=$!
	wait_until 30 runs_in "$T/full/sw" || true
	head -c 1000000 /dev/zero > "$T/full/filler2" 2>/dev/null
	wait $A
	r=$?
	if [ $r -ne 0 ] && grep -q "no space left on the device" "$T/s5.out" &&
		grep -q "No space left on device" "$T/s5.out" && grep -q "sweep slow: 4 jobs: 0 done.*4 not run" "$T/s5.out"; then
		ok "sweep on a full disk: names ENOSPC, stops launching jobs, exit $r"
	else
		bad "sweep on a full disk: exit $r: $(tail -c 900 "$T/s5.out")"
	fi
	rm -f "$T/full/filler2"
	if "$W" collect "$T/full/sw" > "$T/s5.csv" 2> "$T/s5c.err" && [ "$(wc -l < "$T/s5.csv")" -eq 5 ]; then
		ok "collect after a sweep stopped by a full disk: a row per job"
	else
		bad "collect after a full-disk sweep: $(head -c 300 "$T/s5c.err")"
	fi
else
	skipped "full-disk cases (cannot mount a tmpfs here)"
fi

# ---- 7. the executable replaced while a sweep runs
cp "$W" "$T/ws"
cat > "$T/two.spec" <<SPEC
name two
bench mm
size paper
config $ROOT/configs/gtx480.cfg
sched lrr gto
SPEC
"$T/ws" sweep "$T/two.spec" --out "$T/s7" --jobs 1 --quiet > "$T/s7.out" 2>&1 &
A=$!
wait_until 30 runs_in "$T/s7" || true
printf '#!/bin/sh\necho replaced binary >&2\nexit 3\n' > "$T/ws.new"
chmod +x "$T/ws.new"
mv -f "$T/ws.new" "$T/ws"
wait $A
ra=$?
if [ $ra -eq 0 ] && [ "$(ls "$T/s7/jobs/"*.json 2>/dev/null | wc -l)" -eq 2 ] &&
	! ls "$T/s7/jobs/"*.failed >/dev/null 2>&1 && ! grep -q "replaced binary" "$T/s7/jobs/"*.log; then
	ok "executable replaced mid-sweep: both jobs ran the sweep's own binary"
else
	bad "executable replaced mid-sweep: exit $ra: $(head -c 300 "$T/s7.out") $(grep -l "replaced binary" "$T/s7/jobs/"*.log 2>/dev/null)"
fi

# ---- 6. two warpsim cuda runs appending to one --stats file
CU="$ROOT/tests/cudart/bin/threads"
echo '{"before":1}' > "$T/c.jsonl"
"$W" cuda --quiet --stats "$T/c.jsonl" -- "$CU" 250 > "$T/c1.out" 2>&1 &
A=$!
"$W" cuda --quiet --stats "$T/c.jsonl" -- "$CU" 250 > "$T/c2.out" 2>&1
rb=$?
wait $A
ra=$?
if grep -q GLIBC "$T/c1.out"; then
	skipped "concurrent warpsim cuda --stats (the committed CUDA executable cannot start here)"
elif [ $ra -eq 0 ] && [ $rb -eq 0 ] && out=$(python3 - "$T/c.jsonl" <<'PY'
import json, sys
def check():
    lines = open(sys.argv[1]).read().split("\n")
    assert lines[-1] == "", "the file does not end with a newline"
    recs = [json.loads(l) for l in lines[:-1]]  # a torn or interleaved line does not parse
    assert recs[0] == {"before": 1}, "the line written before was lost"
    runs = {}
    for r in recs[1:]:
        runs.setdefault(r["pid"], []).append(r["launch"])
    assert len(runs) == 2, "records of %d runs" % len(runs)
    for pid, launches in runs.items():
        assert launches == list(range(2000)), "run %d: %d records, not launches 0..1999 in order" % (pid, len(launches))
    return len(recs) - 1
try:
    print("%d records" % check())
except Exception as e:
    print("%s: %s" % (type(e).__name__, e))
    sys.exit(1)
PY
); then
	ok "two concurrent warpsim cuda --stats writers: $out, none lost or torn, the earlier line kept"
else
	bad "two concurrent warpsim cuda --stats writers: exits $ra $rb: $(tail -c 300 "$T/c1.out") ${out:-}"
fi

if [ $skip -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ $fail -eq 0 ]
