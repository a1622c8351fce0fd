#!/bin/sh
# test-fleet.sh: benchbook fleet on a real Slurm. Installs Debian's Slurm
# 22.05 and munge (scripts/setup.sh --slurm), writes a one-node cluster for
# localhost (2 CPUs) in a temporary folder, starts munged, slurmctld and
# slurmd as root (no systemd: each in the foreground, in the background of
# this script), runs `benchbook fleet` on tests/notebooks/smoke.ipynb as an
# array of 2 tasks on that node, and checks: two executed notebooks that
# verify, and an N-way comparison that calls the (same) hardware the same.
# It stops the daemons it started, also when a check fails.
set -eu
cd "$(dirname "$0")/.."
export PATH="/usr/local/go/bin:$PATH"
[ "$(id -u)" = 0 ] || { echo "test-fleet: a one-node Slurm on localhost runs its daemons as root: run as root" >&2; exit 1; }
scripts/setup.sh --slurm
make -s build
bb=$PWD/bin/benchbook

say() { printf 'test-fleet: %s\n' "$*" >&2; }
fail() {
	say "FAIL: $*"
	for f in "$T"/*.out; do [ -f "$f" ] && { say "--- $f"; tail -20 "$f" >&2; }; done
	exit 1
}

T=$(mktemp -d /tmp/benchbook-fleet.XXXXXX)
chmod 755 "$T"
pids=""
stop() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	for p in $pids; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -9 "$p" 2>/dev/null || true
	done
	[ -n "$pids" ] && say "stopped the daemons it started ($pids)"
	if [ "${keep:-no}" = no ]; then rm -rf "$T"; else say "kept $T"; fi
}
trap stop EXIT
trap 'exit 1' INT TERM HUP PIPE

# munge, on a socket and key of its own: a munge the machine runs is left alone.
mkdir -p "$T/munge"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 755 "$T/munge"
chmod 400 "$T/munge/munge.key"
munged --foreground --force --socket="$T/munge/munge.socket" --key-file="$T/munge/munge.key" \
	--pid-file="$T/munge/munged.pid" --log-file="$T/munge/munged.log" --seed-file="$T/munge/munged.seed" >"$T/munged.out" 2>&1 &
pids="$pids $!"

mkdir -p "$T/state" "$T/spool"
cat >"$T/slurm.conf" <<EOF
ClusterName=benchbook-test
SlurmctldHost=localhost
SlurmctldPort=${SLURMCTLD_PORT:-6917}
SlurmdPort=${SLURMD_PORT:-6918}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.socket
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SlurmdParameters=config_overrides
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"
i=0
until [ -S "$T/munge/munge.socket" ]; do
	i=$((i + 1)); [ $i -lt 100 ] || fail "munged did not start: $(cat "$T/munge/munged.log" 2>/dev/null)"; sleep 0.1
done
slurmctld -D -f "$SLURM_CONF" -i >"$T/slurmctld.out" 2>&1 &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" -N localhost >"$T/slurmd.out" 2>&1 &
pids="$pids $!"
i=0
until sinfo -h -n localhost -o %T 2>/dev/null | grep -q '^idle'; do
	i=$((i + 1))
	[ $i -lt 150 ] || { keep=yes; fail "the node did not come up idle: $(sinfo -h -o '%T %E' 2>&1); logs in $T"; }
	sleep 0.2
done
say "a one-node Slurm on localhost is up: $(sinfo -h -o '%P %D %c CPUs %T')"

# The fleet: an array of 2 tasks on that node (each --exclusive: one after the other).
out="$T/out"
"$bb" fleet tests/notebooks/smoke.ipynb -o "$out" --nodes 2 --time=10 >"$T/fleet.txt" || {
	cat "$T/fleet.txt"; keep=yes; fail "benchbook fleet failed"; }
cat "$T/fleet.txt"

n=$(ls "$out"/*.ipynb | wc -l)
[ "$n" = 2 ] || fail "$n executed notebooks in $out, want 2: $(ls "$out")"
for nb in "$out"/*.ipynb; do
	"$bb" verify "$nb" >"$T/verify.txt" || { cat "$T/verify.txt"; fail "$nb does not verify"; }
done
grep -q "seed on 2 machines" "$T/fleet.txt" || fail "the fleet did not end with the N-way comparison"
/usr/bin/python3 - "$out/compare.json" <<'EOF'
import json, sys
res = json.load(open(sys.argv[1]))
ks = res["kernels"]
assert len(ks) == 1 and ks[0]["kernel"] == "seed", ks
ms = ks[0]["machines"]
assert [m["hardware"] for m in ms] == ["reference", "same"], [(m["label"], m["hardware"], m.get("hardware_why")) for m in ms]
print("test-fleet: compare.json: %s and %s, hardware %s" % (ms[0]["label"], ms[1]["label"], ms[1]["hardware"]))
EOF
grep -q "same hardware as" "$T/fleet.txt" || fail "the comparison does not call the hardware the same"
say "ok: two notebooks from two array tasks verify, and the N-way comparison says same hardware"
