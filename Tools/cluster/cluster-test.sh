#!/bin/bash
# `make cluster-test`: a one-machine Slurm cluster from Debian's slurm-wlm and munge, without
# systemd, running Tools/cluster/thumbs.sbatch (the recipe in docs/clusters.md) as real job arrays.
#
#  1. munged as user munge, then slurmctld and slurmd (as root, in the foreground, started
#     here and stopped by PID), with a generated slurm.conf: state, spool, logs and the
#     munge socket under one temp folder, ports on loopback, SlurmctldHost `hostname -s`.
#  2. FILES generated photos (forcezoom fixture), a one-machine reference run.
#  3. sbatch --wait --array=1-SHARDS: the union of the outputs is byte-identical to the
#     reference, each input once in the journals (check.py).
#  4. Again into fresh folders; task 3 is cancelled (scancel: SIGTERM) while it works, the
#     others finish; then sbatch --wait --array=3 re-runs that index alone with --resume;
#     outputs and journals are checked again.
# Needs root (munged runs as munge, slurmd launches jobs). FZ: the binary (default: release).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
FZ=$(realpath "${FZ:-$ROOT/.build/release/forcezoom}")
FILES=${FILES:-320}
SHARDS=${SHARDS:-8}
KILLED=${KILLED:-3}
BEGIN=$(date +%s.%N)
say() { echo "cluster-test: $*"; }
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
fail() {
    echo "cluster-test: FAILED: $*" >&2
    exit 1
}
[ "$(id -u)" = 0 ] || fail "run as root (munged is started as user munge, slurmd launches the jobs)"
[ -x "$FZ" ] || fail "$FZ is not built; swift build -c release --static-swift-stdlib, or set FZ"
for tool in munged slurmctld slurmd sbatch scancel squeue sinfo setpriv python3; do
    command -v "$tool" >/dev/null || fail "$tool is missing; apt-get install slurm-wlm munge (make cluster-test does)"
done

T=$(mktemp -d /tmp/fz-cluster.XXXXXX)
chmod 755 "$T"
PIDS=()
stop() {
    local status=$?
    # Everything started here, by PID, newest first (slurmd before slurmctld before munged).
    for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
        kill "${PIDS[i]}" 2>/dev/null || true
        wait "${PIDS[i]}" 2>/dev/null || true
    done
    if [ "$status" != 0 ]; then
        say "logs kept in $T/log and $T/munge"
        tail -n 20 "$T"/log/*.log >&2 2>/dev/null || true
    elif [ -z "${KEEP:-}" ]; then
        rm -rf "$T"
    fi
}
trap stop EXIT

# --- munge, as user munge, with its own key and socket --------------------------------
install -d -o munge -g munge -m 0711 "$T/munge"
head -c 1024 /dev/urandom >"$T/munge/munge.key"
chown munge:munge "$T/munge/munge.key"
chmod 0400 "$T/munge/munge.key"
setpriv --reuid=munge --regid=munge --init-groups /usr/sbin/munged --foreground --force \
    --socket="$T/munge/munge.socket" --key-file="$T/munge/munge.key" --pid-file="$T/munge/munged.pid" \
    --log-file="$T/munge/munged.log" --seed-file="$T/munge/munged.seed" >"$T/munge/munged.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [ -S "$T/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$T/munge/munge.socket" ] || fail "munged did not start (see $T/munge/munged.log)"

# --- slurm.conf ---------------------------------------------------------------------------
HOST=$(hostname -s)
read -r CTLD_PORT SLURMD_PORT < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
mkdir -p "$T/etc" "$T/state" "$T/spool" "$T/log"
# The node's real CPUs, sockets and memory, as slurmd sees them.
NODE=$(slurmd -C | head -n 1 | sed -E 's/^NodeName=[^ ]+//')
cat >"$T/etc/slurm.conf" <<CONF
ClusterName=fzcluster
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
KillWait=5
MaxArraySize=10001
NodeName=$HOST NodeAddr=127.0.0.1 $NODE State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$T/etc/slurm.conf
slurmctld -D -c >"$T/log/slurmctld.out" 2>&1 &
PIDS+=($!)
slurmd -D -N "$HOST" >"$T/log/slurmd.out" 2>&1 &
PIDS+=($!)
for _ in $(seq 150); do
    sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed)' && break
    sleep 0.2
done
sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed)' || fail "the node did not come up: $(sinfo 2>&1 | tail -n 2)"
say "cluster up: $HOST, $(sinfo -h -o '%c CPUs, partition %P') ($(since "$BEGIN") s)"

# --- inputs and the one-machine reference ---------------------------------------------------
W=$T/work
mkdir -p "$W"
cd "$W"
export PATH=$(dirname "$FZ"):$PATH
for i in $(seq 1 "$FILES"); do
    dir=photos/$((2020 + i % 4))/$(printf '%02d' $((i % 12 + 1)))
    mkdir -p "$dir"
    case $((i % 3)) in
    0) forcezoom fixture zoneplate --size $((900 + i))x$((700 + i % 97)) -o "$dir/IMG_$i.png" ;;
    1) forcezoom fixture gradient --direction radial --size $((1000 + i))x800 -o "$dir/IMG_$i.png" ;;
    *) forcezoom fixture orientation --size 1200x$((800 + i)) --exif-orientation $((i % 8 + 1)) -o "$dir/IMG_$i.jpg" ;;
    esac
done
forcezoom thumb photos --recursive --size 256 --out reference --name '%d/%s.jpg' --dry-run --json -q |
    python3 -c 'import json, sys; [print(json.loads(l)["input"]) for l in sys.stdin]' >inputs.txt
[ "$(wc -l <inputs.txt)" = "$FILES" ] || fail "the dry run lists $(wc -l <inputs.txt) inputs, not $FILES"
[ ! -e reference ] || fail "--dry-run created the output folder"
forcezoom thumb photos --recursive --size 256 --out reference --name '%d/%s.jpg' -q
say "$FILES inputs, reference made on one machine"

# sbatch of the docs' script; the test machine's CPUs are few, so one per task.
submit() { sbatch --cpus-per-task=1 --output="logs/%A_%a.log" "$@" "$HERE/thumbs.sbatch"; }
same() { diff -r reference "$1" >/dev/null || fail "$1 differs from the one-machine run: $(diff -rq reference "$1" | head -n 3)"; }
mkdir -p logs

# --- 1. the whole array -------------------------------------------------------------------
T1=$(date +%s.%N)
THUMBS=run1 JOURNALS=journals1 SHARDS=$SHARDS submit --wait --array=1-"$SHARDS" >/dev/null ||
    fail "sbatch --wait --array=1-$SHARDS failed: $(tail -n 3 logs/*.log)"
same run1
python3 "$HERE/check.py" inputs.txt "$SHARDS" journals1/shard-*.jsonl || fail "journals of run 1"
[ "$(ls journals1 | wc -l)" = "$SHARDS" ] || fail "expected $SHARDS journals, found $(ls journals1)"
say "run 1: $SHARDS array tasks, outputs identical to the one-machine run ($(since "$T1") s)"

# --- 2. one task cancelled mid-way, then re-run alone with --resume ----------------------------
T2=$(date +%s.%N)
TODO=$(forcezoom thumb photos --recursive --size 256 --out run2 --name '%d/%s.jpg' --shard "$KILLED/$SHARDS" --dry-run -q | wc -l)
JOB=$(THUMBS=run2 JOURNALS=journals2 SHARDS=$SHARDS submit --parsable --array=1-"$SHARDS")
JOB=${JOB%%;*}
J=journals2/shard-$KILLED.jsonl
for _ in $(seq 6000); do
    [ -f "$J" ] && [ "$(wc -l <"$J")" -ge 2 ] && break
    sleep 0.01
done
scancel "${JOB}_$KILLED"
for _ in $(seq 600); do
    squeue -h -j "$JOB" 2>/dev/null | grep -q . || break
    sleep 0.1
done
DONE=$(wc -l <"$J")
[ "$DONE" -lt "$TODO" ] || fail "task $KILLED finished ($DONE of $TODO) before it could be cancelled; raise FILES"
grep -q 'interrupted' "logs/${JOB}_$KILLED.log" || fail "task $KILLED's log does not say it was interrupted: $(cat "logs/${JOB}_$KILLED.log")"
say "run 2: task $KILLED cancelled after $DONE of its $TODO inputs"
THUMBS=run2 JOURNALS=journals2 SHARDS=$SHARDS submit --wait --array="$KILLED" >/dev/null || fail "the re-run of task $KILLED failed"
RERUN=$(ls -t logs/*_"$KILLED".log | head -n 1)
grep -q "shard $KILLED/$SHARDS (Slurm array task $KILLED): $((TODO - DONE)) thumbnails, $DONE already done, 0 failed" "$RERUN" ||
    fail "the re-run did not resume: $(cat "$RERUN")"
same run2
python3 "$HERE/check.py" inputs.txt "$SHARDS" journals2/shard-*.jsonl || fail "journals of run 2"
say "run 2: task $KILLED re-run alone resumed ($DONE skipped, $((TODO - DONE)) made); outputs identical, each input once ($(since "$T2") s)"

# The recipe in docs/clusters.md is this file, word for word.
python3 - "$HERE/thumbs.sbatch" "$ROOT/docs/clusters.md" <<'PY' || fail "docs/clusters.md does not hold Tools/cluster/thumbs.sbatch as it is"
import sys
script, readme = open(sys.argv[1]).read(), open(sys.argv[2]).read()
sys.exit(0 if script in readme else 1)
PY
say "passed in $(since "$BEGIN") s"
