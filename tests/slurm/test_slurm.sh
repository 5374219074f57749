#!/usr/bin/env bash
# tests/slurm/test_slurm.sh -- the Slurm path of `warpsim sweep`, tested for
# real: installs Debian's slurmctld, slurmd, slurm-client and munge when they
# are missing (apt-get; root or passwordless sudo), starts a single-node
# cluster on this machine in a private directory (munged, slurmctld and slurmd
# run by hand as daemons with pid files; no systemd needed), runs
# experiments/smoke.spec through it (`warpsim sweep --slurm`, with
# MaxArraySize=3 and --pack 2 so that the jobs are packed and the arrays split),
# runs the same spec locally, and checks that `warpsim collect` gives
# byte-identical CSVs.  The cluster is torn down (by pid) on every exit path.
#
#   tests/slurm/test_slurm.sh            # from anywhere; uses $WARPSIM_BIN or build/warpsim
#   KEEP=1 tests/slurm/test_slurm.sh     # keep the work directory for inspection
#
# Prints "1 passed, 0 failed" (exit 0) or "0 passed, 1 failed" (exit 1).
# Every wait has a deadline; nothing here can hang.
set -u
cd "$(dirname "$0")/../.." || exit 1
ROOT=$(pwd)
WORK=""
WARPSIM=${WARPSIM_BIN:-build/warpsim}
case $WARPSIM in /*) ;; *) WARPSIM=$ROOT/$WARPSIM ;; esac

log() { echo "[slurm-test] $*"; }
summary() {
	if [ "$1" = 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
}
finish() { # $1 = 0 pass, else fail; the summary line comes last (after the teardown)
	exit "$1"
}
fail() {
	log "FAIL: $*"
	[ -z "${WORK:-}" ] && { summary 1; exit 1; } # nothing to tear down yet
	for f in "$WORK"/log/*.log; do
		[ -f "$f" ] && { log "--- last lines of $f"; tail -n 15 "$f"; }
	done
	finish 1
}

if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo -n"; fi
[ -x "$WARPSIM" ] || { log "FAIL: $WARPSIM is not built (make, or set WARPSIM_BIN)"; summary 1; exit 1; }

# ---- 1. install the packages when missing -------------------------------
export PATH="$PATH:/usr/sbin:/sbin"
need=""
for c in slurmctld slurmd sbatch squeue scontrol sinfo munged; do
	command -v "$c" > /dev/null 2>&1 || need=yes
done
if [ -n "$need" ]; then
	log "installing slurmctld slurmd slurm-client munge (apt-get)"
	export DEBIAN_FRONTEND=noninteractive
	if ! timeout 600 $SUDO apt-get install -y -q --no-install-recommends slurmctld slurmd slurm-client munge \
		> /tmp/warpsim-slurm-apt.log 2>&1; then
		timeout 300 $SUDO apt-get update -q > /dev/null 2>&1
		timeout 600 $SUDO apt-get install -y -q --no-install-recommends slurmctld slurmd slurm-client munge \
			> /tmp/warpsim-slurm-apt.log 2>&1 || { tail -n 20 /tmp/warpsim-slurm-apt.log; fail "apt-get install failed"; }
	fi
	for c in slurmctld slurmd sbatch squeue scontrol sinfo munged; do
		command -v "$c" > /dev/null 2>&1 || fail "$c still missing after apt-get install"
	done
fi

# ---- 2. a private cluster directory, torn down on every exit ------------
WORK=$(mktemp -d /tmp/warpsim-slurm-XXXXXX) || fail "mktemp"
chmod 755 "$WORK"
mkdir -p "$WORK"/{etc,log,run,state,spool,munge} || fail "mkdir"

stop_pidfile() { # stop the daemon named by a pid file, wait up to 10 s, then SIGKILL
	local f=$1 pid i
	[ -s "$f" ] || return 0
	pid=$(cat "$f" 2> /dev/null)
	case $pid in '' | *[!0-9]*) return 0 ;; esac
	kill "$pid" 2> /dev/null || return 0
	for i in $(seq 1 50); do
		kill -0 "$pid" 2> /dev/null || return 0
		sleep 0.2
	done
	kill -9 "$pid" 2> /dev/null
}
cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	# cancel whatever is left, then stop slurmd, slurmctld, munged (by pid)
	if [ -f "$WORK/run/slurmctld.pid" ]; then
		SLURM_CONF=$WORK/etc/slurm.conf timeout 10 scancel --quiet -u "$(id -un)" > /dev/null 2>&1
	fi
	stop_pidfile "$WORK/run/slurmd.pid"
	stop_pidfile "$WORK/run/slurmctld.pid"
	stop_pidfile "$WORK/run/munged.pid"
	if [ "${KEEP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
	summary "$rc"
	exit "$rc"
}
trap cleanup EXIT
trap 'log "interrupted"; finish 1' INT TERM

# free TCP ports for slurmctld and slurmd (the defaults 6817/6818 may be taken)
port_busy() {
	local hex
	hex=$(printf '%04X' "$1")
	grep -qi ":$hex [0-9A-F]*:[0-9A-F]* 0A " /proc/net/tcp /proc/net/tcp6 2> /dev/null
}
CPORT="" DPORT=""
for p in $(seq 16817 2 16899); do
	if ! port_busy "$p" && ! port_busy $((p + 1)); then
		CPORT=$p
		DPORT=$((p + 1))
		break
	fi
done
[ -n "$CPORT" ] || fail "no free port pair in 16817..16900"

HOST=$(hostname -s)
NCPU=$(nproc)
ME=$(id -un)
# ---- 3. munge: private key, socket directory mode 755 -------------------
dd if=/dev/urandom bs=1 count=1024 of="$WORK/munge/munge.key" 2> /dev/null || fail "munge key"
chmod 400 "$WORK/munge/munge.key"
chmod 755 "$WORK/munge"
MUNGE_SOCKET=$WORK/munge/munge.socket
timeout 20 munged --force --socket="$MUNGE_SOCKET" --key-file="$WORK/munge/munge.key" \
	--pid-file="$WORK/run/munged.pid" --log-file="$WORK/log/munged.log" --seed-file="$WORK/munge/munge.seed" \
	|| fail "munged did not start"
for i in $(seq 1 50); do [ -S "$MUNGE_SOCKET" ] && break; sleep 0.1; done
[ -S "$MUNGE_SOCKET" ] || fail "munged socket did not appear"

# ---- 4. slurm.conf (world-readable) and the daemons ----------------------
cat > "$WORK/etc/slurm.conf" << EOF
# single-node test cluster of tests/slurm/test_slurm.sh
ClusterName=warpsimtest
SlurmctldHost=$HOST(127.0.0.1)
SlurmctldPort=$CPORT
SlurmdPort=$DPORT
AuthType=auth/munge
AuthInfo=socket=$MUNGE_SOCKET
CredType=cred/munge
SlurmUser=$ME
SlurmdUser=root
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/run/slurmctld.pid
SlurmdPidFile=$WORK/run/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0,bf_interval=1
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MaxArraySize=3
InactiveLimit=0
KillWait=5
SlurmdTimeout=60
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$NCPU State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
chmod 644 "$WORK/etc/slurm.conf"
export SLURM_CONF=$WORK/etc/slurm.conf

timeout 30 slurmctld -f "$SLURM_CONF" || fail "slurmctld did not start"
timeout 30 slurmd -f "$SLURM_CONF" -N "$HOST" || fail "slurmd did not start"
state=""
for i in $(seq 1 120); do # up to 60 s for the node to come up
	state=$(timeout 10 sinfo -h -N -o %t 2> /dev/null | head -n 1)
	case $state in idle | mix | alloc) break ;; esac
	sleep 0.5
done
case $state in idle | mix | alloc) log "cluster up: node $HOST is $state (ports $CPORT/$DPORT)" ;; *) fail "node state '$state' after 60 s" ;; esac
maxarr=$(timeout 10 scontrol show config | awk '/^MaxArraySize/ {print $3}')
[ "$maxarr" = 3 ] || fail "MaxArraySize is '$maxarr', expected 3"

# ---- 5. the same sweep through Slurm and locally ------------------------
log "sweep through Slurm"
timeout 600 "$WARPSIM" sweep experiments/smoke.spec --slurm --pack 2 --poll 1 --out "$WORK/slurm-run" \
	> "$WORK/slurm-sweep.out" 2>&1
rc=$?
cat "$WORK/slurm-sweep.out"
[ $rc = 0 ] || fail "warpsim sweep --slurm exited $rc"
narrays=$(ls "$WORK"/slurm-run/slurm/array-*.sh 2> /dev/null | wc -l)
[ "$narrays" = 2 ] || fail "expected 8 jobs, packed 2 per task, in 2 arrays (MaxArraySize 3); found $narrays arrays"
grep -q "sweep-task" "$WORK/slurm-run/slurm/array-0.sh" || fail "array-0.sh does not run sweep-task"
ls "$WORK"/slurm-run/slurm/logs/array-0-*.out > /dev/null 2>&1 || fail "no Slurm task logs"

log "the same sweep locally"
timeout 600 "$WARPSIM" sweep experiments/smoke.spec --out "$WORK/local-run" > "$WORK/local-sweep.out" 2>&1 \
	|| { cat "$WORK/local-sweep.out"; fail "local sweep failed"; }

"$WARPSIM" collect "$WORK/slurm-run" --output "$WORK/slurm.csv" || fail "collect (Slurm run) failed"
"$WARPSIM" collect "$WORK/local-run" --output "$WORK/local.csv" || fail "collect (local run) failed"
rows=$(($(wc -l < "$WORK/slurm.csv") - 1))
[ "$rows" = 8 ] || fail "the Slurm CSV has $rows rows, expected 8"
grep -q ",pending," "$WORK/slurm.csv" && fail "the Slurm CSV has pending jobs"
if ! cmp -s "$WORK/slurm.csv" "$WORK/local.csv"; then
	diff "$WORK/local.csv" "$WORK/slurm.csv" | head -n 20
	fail "the CSVs of the Slurm and the local run differ"
fi
log "identical CSVs ($rows jobs), $(wc -c < "$WORK/slurm.csv") bytes"

# a failing job (max_cycles=10 stops the simulation) is reported with its log; the sweep goes on
printf 'name slurmfail\nbench sp\nsize tiny\nset max_cycles 0 10\n' > "$WORK/fail.spec"
timeout 300 "$WARPSIM" sweep "$WORK/fail.spec" --slurm --poll 1 --out "$WORK/fail-run" > "$WORK/fail.out" 2>&1
rc=$?
[ $rc = 1 ] || { cat "$WORK/fail.out"; fail "a sweep with a failing job exited $rc, expected 1"; }
grep -q "^FAILED .*max_cycles=10: exit 1: .* -- log: $WORK/fail-run/jobs/[0-9a-f]*\.log" "$WORK/fail.out" \
	|| { cat "$WORK/fail.out"; fail "the failed job is not reported with its log"; }
grep -q "1 done (1 now, 0 before), 1 failed" "$WORK/fail.out" || { cat "$WORK/fail.out"; fail "wrong summary"; }
log "a failing job is reported with its log path"

# a rerun resumes: nothing left to submit
timeout 120 "$WARPSIM" sweep experiments/smoke.spec --slurm --poll 1 --out "$WORK/slurm-run" > "$WORK/rerun.out" 2>&1 \
	|| { cat "$WORK/rerun.out"; fail "rerun exited non-zero"; }
grep -q "nothing to submit" "$WORK/rerun.out" || { cat "$WORK/rerun.out"; fail "rerun submitted jobs again"; }
finish 0
