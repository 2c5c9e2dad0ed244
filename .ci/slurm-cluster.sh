#!/usr/bin/env bash
# A real Slurm cluster on this machine for the conformance tier: munged, slurmctld and one slurmd per node,
# every daemon on 127.0.0.1, every file (config, keys, state, logs, sockets) under one folder.
#
# Usage: .ci/slurm-cluster.sh install            apt-get install slurm-wlm and munge when they are missing (root)
#        .ci/slurm-cluster.sh start DIR [NODES]  write the config into DIR and start the daemons; NODES (1 or 2)
#                                                slurmd run side by side on their own ports (default 2)
#        .ci/slurm-cluster.sh stop DIR           stop the daemons started in DIR (by their pid files)
#
# `start` prints `export SLURM_CONF=DIR/slurm.conf` as its last line: sbatch, srun and squeue read the
# cluster from that variable. Gres is off (no GPUs are configured): a job script's --gpus-per-node must be
# overridden on the sbatch command line. Nodes claim 16 CPUs and 64 GiB whatever the machine has
# (SlurmdParameters=config_overrides): Slurm's accounting is what the test exercises, not the hardware.
set -euo pipefail

NODE_CPUS=16
NODE_MEMORY_MIB=65536

install() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null; then
        return 0
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq slurm-wlm munge >/dev/null
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

write_config() {
    local dir="$1" nodes="$2" user
    user="$(id -un)"
    mkdir -p "$dir/state" "$dir/log" "$dir/munge"
    chmod 700 "$dir/munge"
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$dir/munge/munge.key"
    local ctld_port
    ctld_port="$(free_port)"
    {
        echo "ClusterName=verlwizard"
        echo "SlurmctldHost=$(hostname -s)(127.0.0.1)"
        echo "SlurmctldPort=$ctld_port"
        echo "SlurmUser=$user"
        echo "SlurmdUser=$user"
        echo "AuthType=auth/munge"
        echo "CredType=cred/munge"
        echo "AuthInfo=socket=$dir/munge/munge.socket"
        echo "StateSaveLocation=$dir/state"
        echo "SlurmdSpoolDir=$dir/state/slurmd-%n"
        echo "SlurmctldPidFile=$dir/slurmctld.pid"
        echo "SlurmdPidFile=$dir/slurmd-%n.pid"
        echo "SlurmctldLogFile=$dir/log/slurmctld.log"
        echo "SlurmdLogFile=$dir/log/slurmd-%n.log"
        echo "ProctrackType=proctrack/linuxproc"
        echo "TaskPlugin=task/none"
        echo "JobAcctGatherType=jobacct_gather/none"
        echo "AccountingStorageType=accounting_storage/none"
        echo "SelectType=select/cons_tres"
        echo "SelectTypeParameters=CR_Core_Memory"
        echo "SlurmdParameters=config_overrides"
        echo "ReturnToService=2"
        echo "MpiDefault=none"
        echo "SlurmdTimeout=60"
        echo "InactiveLimit=0"
        echo "KillWait=10"
        for i in $(seq 1 "$nodes"); do
            echo "NodeName=node$i NodeHostname=$(hostname -s) NodeAddr=127.0.0.1 Port=$(free_port) CPUs=$NODE_CPUS RealMemory=$NODE_MEMORY_MIB State=UNKNOWN"
        done
        echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=NO"
    } >"$dir/slurm.conf"
}

wait_for() {  # wait_for SECONDS COMMAND...: until the command succeeds
    local deadline=$((SECONDS + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 1
    done
}

start() {
    local dir nodes="${2:-2}"
    mkdir -p "$1"
    dir="$(cd "$1" && pwd -P)"
    write_config "$dir" "$nodes"
    munged --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" --pid-file="$dir/munged.pid" \
        --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed" --force
    export SLURM_CONF="$dir/slurm.conf"
    slurmctld -f "$SLURM_CONF" -i
    for i in $(seq 1 "$nodes"); do
        slurmd -f "$SLURM_CONF" -N "node$i"
    done
    if ! wait_for 60 bash -c "[ \"\$(sinfo -h -N -t idle -o %N | sort -u | wc -l)\" = $nodes ]"; then
        echo "slurm-cluster: the $nodes node(s) did not become idle within 60 s" >&2
        sinfo -N -l >&2 || true
        tail -n 20 "$dir"/log/*.log >&2 || true
        exit 1
    fi
    echo "slurm-cluster: $nodes node(s) idle under $dir" >&2
    echo "export SLURM_CONF=$SLURM_CONF"
}

stop() {
    local dir="$1" pidfile pid
    for pidfile in "$dir"/slurmd-*.pid "$dir/slurmctld.pid" "$dir/munged.pid"; do
        [ -f "$pidfile" ] || continue
        pid="$(cat "$pidfile")"
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 1 20); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.5
        done
        rm -f "$pidfile"
    done
}

case "${1:-}" in
    install) install ;;
    start) start "${2:?usage: slurm-cluster.sh start DIR [NODES]}" "${3:-2}" ;;
    stop) stop "${2:?usage: slurm-cluster.sh stop DIR}" ;;
    *) echo "usage: slurm-cluster.sh install | start DIR [NODES] | stop DIR" >&2; exit 2 ;;
esac
