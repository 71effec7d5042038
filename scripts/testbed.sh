#!/usr/bin/env bash
# A small cluster on this machine for testing mdbench against real metadata servers: N nodes (network, UTS
# and mount namespaces on a private bridge), Slurm across them, and CephFS with two active MDS mounted by
# every node through its own ceph-fuse client at the same path. Root only; no systemd. See docs/testbed.md.
#
# usage: scripts/testbed.sh up|down|status|env
#        scripts/testbed.sh exec NODE CMD...     run CMD in NODE's namespaces (NODE: node1.., or head)
#        scripts/testbed.sh pids NODE             the pids of every process in NODE's network namespace
#        scripts/testbed.sh mpiexec ARGS...      MPICH's mpiexec over the nodes (hosts node1..nodeN unless
#                                                ARGS name -hosts/-host/-f/-hostfile/-machinefile)
#   MDBENCH_TESTBED_DIR    state directory (default /tmp/mdbench-testbed): configuration, keys, pid files,
#                          logs, sockets; the CephFS mount point is $MDBENCH_TESTBED_DIR/cephfs
#   MDBENCH_TESTBED_NODES  number of nodes for `up` (default 2; a list of names "node1 node2" counts too)
#   MDBENCH_TESTBED_NET    the private /24 as three octets (default 10.77.0): head .1, nodeK .(10+K)
#   MDBENCH_TESTBED_CPUS   CPUs each node claims in Slurm (default 2)
#
# The head (the root namespace, address .1) runs munged, slurmctld and the Ceph daemons (mon, mgr, one
# memstore OSD, MDS a and b), and mounts the CephFS at the same path through a client of its own
# (client.head) that runs no rank: the view to check results from. Nothing routes off the machine: the
# bridge has no uplink and the nodes have no default route.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
self=$here/testbed.sh
dir=${MDBENCH_TESTBED_DIR:-/tmp/mdbench-testbed}
dir=${dir%/}
case $dir in /*) ;; *) dir=$PWD/$dir ;; esac  # absolute: `up` leaves the caller's directory (detach)
marker=$dir/.mdbench-testbed
fsname=mdbfs

die() { echo "testbed: $*" >&2; exit 1; }
log() { echo "testbed: $*" >&2; }

# The state of the last `up` (node count, network, names, ports) wins over the environment for every other
# command. The default directory's bridge is mdbtb0 and its nodes' network namespaces mdbtb-nodeK; another
# directory gets names of its own (tbXXXX from a checksum of its path), so two test beds can run side by side
# on different networks.
nodes=2 net=10.77.0 cpus=2 ctld_port='' tag=mdbtb
if [ "$dir" != /tmp/mdbench-testbed ]; then tag=tb$(printf '%s' "$dir" | cksum | cut -c1-4); fi
load_state() {
  if [ -s "$marker" ]; then
    # shellcheck disable=SC1090
    . "$marker"
  fi
}
load_state
bridge=${tag}0
head_ip() { echo "$net.1"; }
node_ip() { echo "$net.$((10 + ${1#node}))"; }
node_names() { local k; for ((k = 1; k <= nodes; k++)); do printf 'node%d ' "$k"; done; }
cephfs=$dir/cephfs
conf=$dir/ceph/ceph.conf
slurm_conf=$dir/slurm/slurm.conf

is_node() { [[ $1 =~ ^node[0-9]+$ ]] && [ "${1#node}" -ge 1 ] && [ "${1#node}" -le "$nodes" ]; }
netns_of() { echo "$tag-$1"; }

# in_node NODE CMD...: CMD in NODE's namespaces, in the same working directory if it exists there. The
# launcher and `exec` replace themselves with it (exec in_node_cmd), so that signals reach CMD.
in_node_cmd() {  # sets the array cmd
  local node=$1
  shift
  # shellcheck disable=SC2016 # expanded by the inner shell
  cmd=(nsenter --net="/run/netns/$(netns_of "$node")" --uts="$dir/ns/$node.uts" --mount="$dir/ns/$node.mnt" --
    /bin/sh -c 'cd "$1" 2>/dev/null || cd /; shift; exec "$@"' testbed-exec "$PWD" "$@")
}
in_node() {
  local cmd
  in_node_cmd "$@"
  "${cmd[@]}"
}

# running PID: the process exists and is no zombie. A daemon's parent is init, and an init that reaps late
# (this project's machines: 1-2 s) leaves a dead daemon a zombie that kill -0 still finds.
running() {
  local stat
  kill -0 "$1" 2>/dev/null || return 1
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [ "${stat%% *}" != Z ]
}

pid_alive() {  # pid_alive PIDFILE: prints the pid if the process in PIDFILE runs
  local pid
  [ -s "$1" ] || return 1
  pid=$(cat "$1" 2>/dev/null) || return 1
  [[ $pid =~ ^[0-9]+$ ]] && running "$pid" && echo "$pid"
}

wait_gone() {  # wait_gone PID SECONDS
  local pid=$1 tries=$(($2 * 10))
  while running "$pid"; do
    tries=$((tries - 1))
    [ "$tries" -gt 0 ] || return 1
    sleep 0.1
  done
}

wait_for() {  # wait_for SECONDS WHAT CMD...: retries CMD every 0.2 s
  local tries=$(($1 * 5)) what=$2
  shift 2
  until "$@" >/dev/null 2>&1; do
    tries=$((tries - 1))
    [ "$tries" -gt 0 ] || { log "timed out waiting for $what"; return 1; }
    sleep 0.2
  done
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

ceph_cmd() { timeout 30 ceph -c "$conf" --connect-timeout 20 "$@"; }

# The NFS gateway node: nfs_up, nfs_down, nfs_node_down, nfs_left, nfs_check, nfs_print_env.
# shellcheck source=scripts/testbed/nfs.sh
. "$here/testbed/nfs.sh"

# detach: what a daemon launcher owes its daemons, before `up` starts one. Closes every descriptor above 2
# this script was given, so that no daemon keeps the caller's open files (`flock LOCK testbed.sh up` would
# hold LOCK until `down`; Bash's own descriptor of this script, 255, is close-on-exec already), and works
# from /, so that no daemon starts in the caller's directory: ceph-mgr aborted (SIGABRT in
# Py_NewInterpreter, loading its Python modules 2-3 s after `up` returned) when that directory was removed,
# as a test's temporary directory is when the test ends.
detach() {
  local fd
  for fd in "/proc/$$/fd"/*; do
    fd=${fd##*/}
    if [ "$fd" -gt 2 ] && [ "$fd" -lt 255 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
  done
  cd /
}

# ---------------------------------------------------------------------------------------------------- nodes
nodes_up() {
  local node k ip
  install -d -m 755 "$dir/ns"
  # Persistent mount namespaces need their files on a private mount (unshare(1)).
  if ! mountpoint -q "$dir/ns"; then
    mount --bind "$dir/ns" "$dir/ns"
    mount --make-private "$dir/ns"
  fi
  ip link add "$bridge" type bridge
  ip addr add "$(head_ip)/24" dev "$bridge"
  ip link set "$bridge" up
  # The nodes resolve each other and the head by name through their own hosts file.
  {
    echo "127.0.0.1 localhost"
    echo "$(head_ip) $(hostname) head"
    for node in $(node_names); do echo "$(node_ip "$node") $node"; done
  } >"$dir/hosts"
  for ((k = 1; k <= nodes; k++)); do
    node=node$k ip=$(node_ip "$node")
    ip netns add "$(netns_of "$node")"
    touch "$dir/ns/$node.uts" "$dir/ns/$node.mnt"
    unshare --uts="$dir/ns/$node.uts" --mount="$dir/ns/$node.mnt" --propagation private -- hostname "$node"
    ip link add "$tag-$node" type veth peer name eth0 netns "$(netns_of "$node")"
    ip link set "$tag-$node" master "$bridge" up
    ip -n "$(netns_of "$node")" link set lo up
    ip -n "$(netns_of "$node")" addr add "$ip/24" dev eth0
    ip -n "$(netns_of "$node")" link set eth0 up
    in_node "$node" mount --bind "$dir/hosts" /etc/hosts
  done
}

nodes_down() {
  local node k
  for ((k = 1; k <= nodes; k++)); do
    node=node$k
    ip link del "$tag-$node" 2>/dev/null || true
    for f in "$dir/ns/$node.mnt" "$dir/ns/$node.uts"; do
      if mountpoint -q "$f" 2>/dev/null; then umount "$f" || umount -l "$f"; fi
    done
    if [ -e "/run/netns/$(netns_of "$node")" ]; then ip netns del "$(netns_of "$node")" || true; fi
  done
  if ip link show "$bridge" >/dev/null 2>&1; then ip link del "$bridge"; fi
  if mountpoint -q "$dir/ns" 2>/dev/null; then umount "$dir/ns" || umount -l "$dir/ns"; fi
}

# ----------------------------------------------------------------------------------------------------- Slurm
write_slurm_conf() {
  local node
  install -d -m 755 "$dir/slurm" "$dir/slurm/run" "$dir/slurm/log" "$dir/slurm/state" "$dir/slurm/spool"
  install -d -m 1777 "$dir/slurm/pbs"
  cat >"$slurm_conf" <<EOF
# Generated by scripts/testbed.sh: the test bed's Slurm cluster.
ClusterName=mdbtb
SlurmctldHost=$(hostname)($(head_ip))
SlurmctldPort=$ctld_port
SlurmdPort=$((ctld_port + 1))
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
MpiDefault=pmi2
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
TaskProlog=$dir/slurm/task-prolog.sh
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
# Every ended job's state and exit code, kept: slurmctld forgets a job MinJobAge after its end time, and a
# cancelled job's end time is the scancel, so one whose completing outlasts MinJobAge is gone as it ends.
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/slurm/jobcomp.txt
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# sbatch --wait polls every 2 s only while MinJobAge/2 exceeds the interval (else 2, 8, 32 s: a 10 s job
# waited 42 s); finished jobs still stay listed for at least 4 s.
MinJobAge=4
# Between a job's SIGTERM and its SIGKILL (default 30 s): a job with one rank killed ends only then, as the
# others wait for it at a barrier; 10 s is plenty for mdbench's cleanup of a test's few hundred items.
KillWait=10
SlurmdParameters=config_overrides
StateSaveLocation=$dir/slurm/state
SlurmdSpoolDir=$dir/slurm/spool/%n
SlurmctldPidFile=$dir/slurm/run/slurmctld.pid
SlurmdPidFile=$dir/slurm/run/slurmd.%n.pid
SlurmctldLogFile=$dir/slurm/log/slurmctld.log
SlurmdLogFile=$dir/slurm/log/slurmd.%n.log
SlurmctldDebug=info
SlurmdDebug=info
EOF
  for node in $(node_names); do
    echo "NodeName=$node NodeAddr=$(node_ip "$node") CPUs=$cpus RealMemory=1000 State=UNKNOWN" >>"$slurm_conf"
  done
  echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=30 OverSubscribe=YES State=UP" >>"$slurm_conf"
  # Slurm reads "export NAME=value" lines from a TaskProlog's stdout: the PBS variables of the job, so that
  # PBS scripts run by sbatch or Torque's qsub wrapper find what they expect.
  cat >"$dir/slurm/task-prolog.sh" <<EOF
#!/bin/bash
# Generated by scripts/testbed.sh: the PBS variables of this job.
nodefile=$dir/slurm/pbs/\$SLURM_JOB_ID.nodes
if [ ! -s "\$nodefile" ]; then
  # Each node as many times as it has tasks: SLURM_TASKS_PER_NODE reads like "2(x3),1".
  counts=()
  IFS=, read -ra parts <<<"\${SLURM_TASKS_PER_NODE:-1}"
  for p in "\${parts[@]}"; do
    if [[ \$p =~ ^([0-9]+)\(x([0-9]+)\)\$ ]]; then
      for ((i = 0; i < BASH_REMATCH[2]; i++)); do counts+=("\${BASH_REMATCH[1]}"); done
    else
      counts+=("\$p")
    fi
  done
  i=0
  for n in \$(SLURM_CONF=$slurm_conf scontrol show hostnames "\$SLURM_JOB_NODELIST"); do
    for ((j = 0; j < \${counts[i]:-1}; j++)); do echo "\$n"; done
    i=\$((i + 1))
  done >"\$nodefile.\$\$" && mv "\$nodefile.\$\$" "\$nodefile"
fi
echo "export PBS_JOBID=\$SLURM_JOB_ID.$(hostname)"
echo "export PBS_JOBNAME=\$SLURM_JOB_NAME"
echo "export PBS_O_WORKDIR=\$SLURM_SUBMIT_DIR"
echo "export PBS_NODEFILE=\$nodefile"
echo "export PBS_NP=\${SLURM_NTASKS:-\$SLURM_NPROCS}"
echo "export PBS_NUM_NODES=\$SLURM_JOB_NUM_NODES"
EOF
  chmod 755 "$dir/slurm/task-prolog.sh"
}

munge_up() {
  local key=$dir/munge/munge.key
  install -d -m 755 -o munge -g munge "$dir/munge"
  dd if=/dev/urandom of="$key" bs=1024 count=1 status=none
  chown munge:munge "$key"
  chmod 400 "$key"
  runuser -u munge -- /usr/sbin/munged --key-file="$key" --socket="$dir/munge/munge.socket" \
    --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed" ||
    { log "munged did not start: $(tail -3 "$dir/munge/munged.log" 2>/dev/null)"; return 1; }
}

slurm_up() {
  local p node
  for p in $(seq 6917 2 6999); do
    if port_free "$p" && port_free $((p + 1)); then ctld_port=$p; break; fi
  done
  [ -n "$ctld_port" ] || { log "no free port pair in 6917-7000 for slurmctld"; return 1; }
  echo "ctld_port=$ctld_port" >>"$marker"
  write_slurm_conf
  munge_up
  SLURM_CONF=$slurm_conf /usr/sbin/slurmctld -f "$slurm_conf" ||
    { log "slurmctld did not start: $(tail -5 "$dir/slurm/log/slurmctld.log")"; return 1; }
  for node in $(node_names); do
    in_node "$node" /usr/sbin/slurmd -f "$slurm_conf" -N "$node" ||
      { log "slurmd on $node did not start: $(tail -5 "$dir/slurm/log/slurmd.$node.log")"; return 1; }
  done
}

slurm_nodes_idle() {
  local idle
  idle=$(SLURM_CONF=$slurm_conf timeout 5 sinfo -h -N -t idle -o %N 2>/dev/null | sort -u | wc -l)
  [ "$idle" -eq "$nodes" ]
}

slurm_down() {  # cancels every job and sends SIGTERM to the Slurm daemons; adds their pids to $stopping
  local pid node
  if pid_alive "$dir/slurm/run/slurmctld.pid" >/dev/null; then
    SLURM_CONF=$slurm_conf timeout 5 scancel --full --quiet --partition=debug 2>/dev/null || true
    # A short grace for the jobs to end (their ranks clean up and report), bounded by the clock rather than by
    # tries: a job that ignores SIGTERM stays for KillWait (10 s), and a loaded slurmctld answers squeue
    # slowly (50 tries once took 6 s). What is left is killed with the nodes.
    local deadline=$((${EPOCHREALTIME/./} + 2000000))
    while [ -n "$(SLURM_CONF=$slurm_conf timeout 2 squeue -h -t running,completing -o %i 2>/dev/null)" ] &&
      [ "${EPOCHREALTIME/./}" -lt "$deadline" ]; do
      sleep 0.1
    done
  fi
  for node in $(node_names); do
    if pid=$(pid_alive "$dir/slurm/run/slurmd.$node.pid"); then kill -TERM "$pid"; stopping+=("$pid"); fi
  done
  if pid=$(pid_alive "$dir/slurm/run/slurmctld.pid"); then kill -TERM "$pid"; stopping+=("$pid"); fi
}

# After Slurm: slurmd hangs when munged goes first. SIGKILL: on SIGTERM munged takes 2 s, and `up` starts it
# afresh (a new key and socket).
munge_down() {
  local pid
  if pid=$(pid_alive "$dir/munge/munged.pid"); then kill -KILL "$pid"; stopping+=("$pid"); fi
}

# wait_stopping SECONDS: waits for every pid in $stopping, SECONDS in all (not each: a slurmd whose job steps
# ignore SIGTERM lingers, and two of them cost 10 s), then SIGKILL for the late ones. Nothing is lost: `up`
# starts every daemon from a fresh state directory.
wait_stopping() {
  local pid deadline=$((${EPOCHREALTIME/./} + $1 * 1000000))
  for pid in "${stopping[@]}"; do
    while running "$pid" && [ "${EPOCHREALTIME/./}" -lt "$deadline" ]; do sleep 0.1; done
  done
  for pid in "${stopping[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  for pid in "${stopping[@]}"; do wait_gone "$pid" 5 || log "pid $pid survived SIGKILL"; done
  stopping=()
}

# ------------------------------------------------------------------------------------------------------ Ceph
ceph_daemons() { echo "mds.a mds.b mds.c osd.0 mgr.x mon.a"; }  # in the order they stop

write_ceph_conf() {
  local c=$dir/ceph fsid
  fsid=$(cat /proc/sys/kernel/random/uuid)
  install -d -m 700 "$c" "$c/run" "$c/log" "$c/mon.a" "$c/mgr.x" "$c/osd.0" "$c/mds.a" "$c/mds.b" "$c/mds.c"
  cat >"$conf" <<EOF
# Generated by scripts/testbed.sh: the test bed's Ceph cluster (one host, in memory).
[global]
fsid = $fsid
mon host = [v2:$(head_ip):3300,v1:$(head_ip):6789]
public network = $net.0/24
keyring = $c/keyring
run dir = $c/run
admin socket = $c/run/\$name.asok
log file = $c/log/\$name.log
mon data = $c/\$name
mgr data = $c/\$name
osd data = $c/\$name
mds data = $c/\$name
ms bind ipv6 = false
auth allow insecure global id reclaim = false
osd pool default size = 1
osd pool default min size = 1
osd pool default pg autoscale mode = off
mon allow pool size one = true
# The monitor gathers changes for this long before it commits a map (default 1 s): every step of bring-up
# (osd new, two pools, fs new, max_mds, each MDS's creating and active) waited up to a second for it. Once
# up, ceph_up sets Ceph's 1 s back, so that a failover runs at Ceph's pace, as on a site's cluster.
paxos propose interval = 0.1
mon allow pool delete = true
mon warn on pool no redundancy = false
osd crush chooseleaf type = 0
osd objectstore = memstore
memstore device bytes = 2147483648
mds bal interval = 0
mds early reply = false
# A client that never answers a revoke of its caps (the NFS gateway's libcephfs, now and then, after
# ceph mds fail 0: "isn't responding to mclientcaps(revoke), ino 0x1") holds up every request that needs
# them (a mkdir or rmdir in the root) until the MDS evicts it: by default when its session has gone
# session_autoclose (300 s) without a renewal. Evict it 30 s after the revoke instead (at the MDS's next
# 5 s tick); a client that is alive answers within milliseconds.
mds cap revoke eviction timeout = 30
# A new rank waits in up:reconnect for every client in its session table (45 s by default). A libcephfs
# client that ended right after a failover sometimes left its session there (its close not taken by the new
# rank 0; the process gone after libcephfs's own shutdown wait): the next failover then waited 45.9 s for it
# ("evicting unresponsive client ... during MDS startup"). 15 s; a live client here reconnects within 13 ms.
mds reconnect timeout = 15
[client]
admin socket = $c/run/\$name.\$pid.asok
log file = $c/log/\$name.log
[client.admin]
admin socket =
log file =
EOF
  for n in mon.a mgr.x osd.0 mds.a mds.b mds.c; do
    printf '[%s]\npid file = %s/run/%s.pid\n' "$n" "$c" "$n" >>"$conf"
  done
  for n in $(node_names) head; do
    printf '[client.%s]\npid file = %s/run/client.%s.pid\n' "$n" "$c" "$n" >>"$conf"
  done
}

write_ceph_keys() {  # every key in one keyring, imported by the monitor at mkfs
  local k=$dir/ceph/keyring n
  exec 3>&1 >/dev/null
  ceph-authtool --create-keyring "$k" --gen-key -n mon. --cap mon 'allow *'
  ceph-authtool "$k" --gen-key -n client.admin --cap mon 'allow *' --cap osd 'allow *' --cap mds 'allow *' \
    --cap mgr 'allow *'
  ceph-authtool "$k" --gen-key -n mgr.x --cap mon 'allow profile mgr' --cap mds 'allow *' --cap osd 'allow *'
  ceph-authtool "$k" --gen-key -n osd.0 --cap mon 'allow profile osd' --cap mgr 'allow profile osd' \
    --cap osd 'allow *'
  for n in a b c; do
    ceph-authtool "$k" --gen-key -n "mds.$n" --cap mon 'allow profile mds' --cap mgr 'allow profile mds' \
      --cap osd 'allow *' --cap mds 'allow'
  done
  # The p lets the clients set ceph.dir.pin.
  for n in $(node_names) head; do
    ceph-authtool "$k" --gen-key -n "client.$n" --cap mon 'allow r' --cap mds 'allow rwp' \
      --cap osd "allow rw tag cephfs data=$fsname"
  done
  # libcephfs clients (mdbench -a CEPHFS, mdtest -a CEPHFS) on any node: an id of their own, whose config
  # section is [client] alone (a ceph-fuse id's carries that daemon's pid file). The keyring is [global]'s.
  ceph-authtool "$k" --gen-key -n client.mdbench --cap mon 'allow r' --cap mds 'allow rwp' \
    --cap osd "allow rw tag cephfs data=$fsname"
  # The NFS gateway's (scripts/testbed/nfs.sh): here rather than by `ceph auth` later (1.5 s of `up`).
  ceph-authtool "$k" --gen-key -n client.nfs --cap mon 'allow r' --cap mds 'allow rw' \
    --cap osd "allow rw tag cephfs data=$fsname"
  chmod 600 "$k"
  exec >&3 3>&-
}

ceph_up() {
  local c=$dir/ceph uuid
  write_ceph_conf
  write_ceph_keys
  monmaptool --create --fsid "$(sed -n 's/^fsid = //p' "$conf")" \
    --addv a "[v2:$(head_ip):3300,v1:$(head_ip):6789]" "$c/monmap" >/dev/null
  ceph-mon -c "$conf" -i a --mkfs --monmap "$c/monmap" --keyring "$c/keyring" >/dev/null
  ceph-mon -c "$conf" -i a 2>>"$c/log/mon.a.stderr"
  uuid=$(cat /proc/sys/kernel/random/uuid)
  # The map first (osd.0, pools, the file system with max_mds 2), then the daemons that fill it in.
  /usr/bin/python3 "$here/testbed/ceph-mon.py" "$conf" create "$fsname" "$uuid"
  ceph-mgr -c "$conf" -i x 2>>"$c/log/mgr.x.stderr"
  ceph-osd -c "$conf" -i 0 --mkfs --osd-uuid "$uuid" >/dev/null 2>&1
  ceph-osd -c "$conf" -i 0 2>>"$c/log/osd.0.stderr"
  ceph-mds -c "$conf" -i a >/dev/null
  ceph-mds -c "$conf" -i b >/dev/null
  /usr/bin/python3 "$here/testbed/ceph-mon.py" "$conf" wait-active "$fsname" 2 90
  # The third comes up once both ranks are taken: the standby that takes over a failed rank (issue 34's
  # failover tests: `ceph mds fail 0`, or killing an active MDS's pid).
  ceph-mds -c "$conf" -i c >/dev/null
  /usr/bin/python3 "$here/testbed/ceph-mon.py" "$conf" wait-standby "$fsname" 1 60
  # Bring-up done: Ceph's own commit interval again (ceph.conf's 0.1 s is for bring-up; a runtime setting
  # through the admin socket outranks the file). With 0.1 s a failover's stall was 0.6-1.4 s instead of 4-6,
  # and the stonewalled failover runs made and removed that many more files: no time won.
  ceph --admin-daemon "$c/run/mon.a.asok" config set paxos_propose_interval 1 >/dev/null
  mds_keeper_up
}

two_mds_active() { [ "$(ceph_cmd mds stat 2>/dev/null | grep -o 'up:active' | wc -l)" -eq 2 ]; }

mount_client() {  # mount_client NAME: client.NAME mounts the CephFS at $cephfs (in NAME's namespaces)
  local name=$1 run=()
  [ "$name" = head ] || run=(in_node "$name")
  "${run[@]}" ceph-fuse -c "$conf" --id "$name" -k "$dir/ceph/keyring" "$cephfs" >/dev/null 2>&1 ||
    { log "ceph-fuse for client.$name failed: $(tail -3 "$dir/ceph/log/client.$name.log" 2>/dev/null)"; return 1; }
  "${run[@]}" mountpoint -q "$cephfs" || { log "client.$name: $cephfs is not mounted"; return 1; }
}

mounts_up() {
  local node
  install -d -m 755 "$cephfs"
  # FUSE mounts only over an empty directory: say what is in the way (made there while the test bed was down).
  local in_way
  in_way=$(find "$cephfs" -mindepth 1 -maxdepth 1 -printf '%f ' | head -c 200)
  [ -z "$in_way" ] || { log "$cephfs is not empty (written while the test bed was down?): $in_way"; return 1; }
  # Nodes first: their mount namespaces must not hold a copy of the head's mount.
  for node in $(node_names); do mount_client "$node"; done
  mount_client head
}

unmount_client() {  # unmount_client NAME
  local name=$1 run=() pid
  [ "$name" = head ] || run=(in_node "$name")
  # The mount table, not mountpoint(1): a client that died leaves a mount whose stat fails (ENOTCONN).
  if "${run[@]}" findmnt -rn --mountpoint "$cephfs" >/dev/null 2>&1; then
    "${run[@]}" umount "$cephfs" 2>/dev/null || "${run[@]}" umount -l "$cephfs" || true
  fi
  # The daemons go next: no need to wait for the client's goodbye to them.
  if pid=$(pid_alive "$dir/ceph/run/client.$name.pid"); then kill -KILL "$pid"; stopping+=("$pid"); fi
}

# The MDS keeper: what ceph-mds@.service (systemd, Restart=on-failure) does at a site. A failed MDS (`ceph
# mds fail`) respawns itself (execv, the same pid), and Ceph 16.2's new process can crash as it starts
# (2026-12-07, a CI's tb_failover: a segfault in msgr-worker-1, in libceph-common, right after the respawn);
# nothing brought it back, and every test after that found the test bed one MDS short. The keeper looks at
# each MDS's pid file once a second and starts an MDS that is gone again (logged in ceph/log/mds-keeper.log).
# It runs in a session of its own (`testbed.sh __mds-keeper`); ceph_down stops it (SIGTERM: it finishes the
# start under way, so no MDS is left without its pid file) before the daemons.
keeper_pidfile=$dir/ceph/run/mds-keeper.pid
mds_keeper() {
  local n waited stop=no
  trap 'stop=yes' TERM
  while [ "$stop" = no ] && sleep 1 && [ "$stop" = no ]; do
    for n in a b c; do
      pid_alive "$dir/ceph/run/mds.$n.pid" >/dev/null && continue
      echo "$(date -u +%FT%TZ) mds.$n is not running: starting it again" >>"$dir/ceph/log/mds-keeper.log"
      rm -f "$dir/ceph/run/mds.$n.pid"
      ceph-mds -c "$conf" -i "$n" >/dev/null 2>>"$dir/ceph/log/mds.$n.stderr" || true
      # Its pid file before the next look: never two daemons of one name.
      waited=0
      while ! pid_alive "$dir/ceph/run/mds.$n.pid" >/dev/null && [ "$waited" -lt 100 ]; do
        sleep 0.1
        waited=$((waited + 1))
      done
    done
  done
}
mds_keeper_up() {
  setsid "$self" __mds-keeper </dev/null >>"$dir/ceph/log/mds-keeper.log" 2>&1 &
  echo "$!" >"$keeper_pidfile"
}

ceph_down() {  # after every client has gone SIGKILL is safe (the OSD keeps nothing) and fast
  local n pid
  if pid=$(pid_alive "$keeper_pidfile"); then kill -TERM "$pid"; wait_gone "$pid" 15 || kill -KILL "$pid" 2>/dev/null || true; fi
  for n in $(ceph_daemons); do
    if pid=$(pid_alive "$dir/ceph/run/$n.pid"); then kill -KILL "$pid"; stopping+=("$pid"); fi
  done
}

# -------------------------------------------------------------------------------------------- up/down/status
node_exists() { [ -e "/run/netns/$(netns_of "$1")" ]; }

# took WHAT: appends "WHAT S" (seconds since the last call) to $down_steps, so that `down` says where its time
# went.
down_steps="" down_mark=${EPOCHREALTIME/./}
took() {
  local now=${EPOCHREALTIME/./}
  down_steps+="${down_steps:+, }$1 $(((now - down_mark) / 100000 / 10)).$(((now - down_mark) / 100000 % 10)) s"
  down_mark=$now
}

stopping=()
down() {
  local node pid
  [ -e "$marker" ] || { ip link show "$bridge" >/dev/null 2>&1 && nodes_down; return 0; }
  down_mark=${EPOCHREALTIME/./}
  slurm_down
  took "jobs"
  for node in $(node_names); do node_exists "$node" && unmount_client "$node"; done
  unmount_client head
  took "unmount"
  nfs_down
  ceph_down
  wait_stopping 3
  took "daemons"
  munge_down
  # Whatever is left inside a node (a rank that outlived its job) runs in our namespace: end it by pid.
  for node in $(node_names); do
    if node_exists "$node"; then
      for pid in $(ip netns pids "$(netns_of "$node")" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
    fi
  done
  nfs_node_down
  nodes_down
  wait_stopping 3
  took "munge and nodes"
}

anything_left() {  # 0 if a daemon of the test bed runs or a node exists
  local f node
  for f in "$dir"/munge/munged.pid "$dir"/slurm/run/*.pid "$dir"/ceph/run/*.pid; do
    pid_alive "$f" >/dev/null && return 0
  done
  for node in $(node_names); do node_exists "$node" && return 0; done
  nfs_left && return 0
  ip link show "$bridge" >/dev/null 2>&1
}

check_all() {  # prints one line per component and the daemons' memory; returns non-zero if any is down
  local ok=0 n pid node rss total=0
  check() {  # check WHAT PIDFILE
    if pid=$(pid_alive "$2"); then
      rss=$(awk '/^VmRSS:/ { print int($2 / 1024) }' "/proc/$pid/status" 2>/dev/null || echo 0)
      total=$((total + ${rss:-0}))
      echo "$1: running (pid $pid, ${rss:-?} MiB)"
    else
      echo "$1: not running"
      ok=1
    fi
  }
  [ -e "$marker" ] || { echo "no test bed in $dir"; return 1; }
  check munged "$dir/munge/munged.pid"
  check slurmctld "$dir/slurm/run/slurmctld.pid"
  for node in $(node_names); do
    if node_exists "$node"; then echo "$node: namespaces present ($(node_ip "$node"))"; else
      echo "$node: no namespaces"; ok=1; continue; fi
    check "slurmd $node" "$dir/slurm/run/slurmd.$node.pid"
  done
  for n in mon.a mgr.x osd.0 mds.a mds.b mds.c; do check "ceph $n" "$dir/ceph/run/$n.pid"; done
  check "MDS keeper" "$keeper_pidfile"
  nfs_check
  for node in $(node_names) head; do
    check "ceph-fuse client.$node" "$dir/ceph/run/client.$node.pid"
    local run=()
    [ "$node" = head ] || { node_exists "$node" || continue; run=(in_node "$node"); }
    if "${run[@]}" mountpoint -q "$cephfs" 2>/dev/null; then echo "$node: $cephfs mounted"; else
      echo "$node: $cephfs NOT mounted"; ok=1; fi
  done
  echo "memory: $total MiB resident in the test bed's daemons"
  return $ok
}

status() {
  local ok=0
  check_all || ok=1
  if [ $ok = 0 ]; then
    ceph_cmd mds stat 2>/dev/null || true
    SLURM_CONF=$slurm_conf timeout 5 sinfo -N 2>/dev/null || true
  fi
  return $ok
}

up() {
  [ "$(id -u)" = 0 ] || die "must run as root"
  local exe t0=$SECONDS
  # Its paths go into command-line words (MDBENCH_TESTBED_SERVER_STATS, ssh-launcher's command lines).
  [[ $dir =~ ^[A-Za-z0-9_./+-]+$ ]] || die "MDBENCH_TESTBED_DIR '$dir': only letters, digits and _ . / + - please"
  for exe in munged slurmctld slurmd ceph-mon ceph-mgr ceph-osd ceph-mds ceph-fuse ceph ceph-authtool \
    monmaptool nsenter unshare ip ganesha.nfsd rpcbind dbus-daemon; do
    command -v "$exe" >/dev/null || [ -x "/usr/sbin/$exe" ] || die "$exe missing: install the packages of scripts/deps.sh"
  done
  if [ -e "$marker" ]; then
    if check_all >/dev/null 2>&1; then log "already up in $dir"; return 0; fi
    if anything_left; then
      log "a partial test bed in $dir: taking it down first"
      down
    fi
  fi
  if [ -e "$dir" ] && [ ! -e "$marker" ] && [ -n "$(ls -A "$dir")" ]; then
    die "$dir exists and is not a test bed directory (no $marker): refusing to use it"
  fi
  ip link show "$bridge" >/dev/null 2>&1 && die "bridge $bridge exists: another test bed runs (scripts/testbed.sh down)"
  local want=${MDBENCH_TESTBED_NODES:-2}
  [[ $want =~ ^[0-9]+$ ]] || want=$(wc -w <<<"$want")
  if [ "$want" -lt 1 ] || [ "$want" -gt 200 ]; then die "MDBENCH_TESTBED_NODES: '$want' is not a node count in 1..200"; fi
  nodes=$want net=${MDBENCH_TESTBED_NET:-10.77.0} cpus=${MDBENCH_TESTBED_CPUS:-2}
  [[ $net =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "MDBENCH_TESTBED_NET: '$net' is not three octets like 10.77.0"
  [[ $cpus =~ ^[1-9][0-9]*$ ]] || die "MDBENCH_TESTBED_CPUS: '$cpus' is not a positive count"
  ip -4 addr show | grep -q "inet $net\." && die "MDBENCH_TESTBED_NET: $net.0/24 is already in use on this machine"

  install -d -m 755 "$dir"
  rm -rf "$dir/ceph" "$dir/slurm" "$dir/munge" "$dir/ns" "$dir/hosts" "$dir/env" "$dir/nfs"
  printf 'nodes=%s\nnet=%s\ncpus=%s\ntag=%s\n' "$nodes" "$net" "$cpus" "$tag" >"$marker"
  trap 'log "bring-up failed: cleaning up (logs in $dir)"; down' EXIT
  detach
  nodes_up
  log "nodes up ($((SECONDS - t0)) s)"
  slurm_up
  log "Slurm daemons started ($((SECONDS - t0)) s)"
  ceph_up
  log "Ceph up with two active MDS ($((SECONDS - t0)) s)"
  nfs_up
  log "NFS gateway up ($((SECONDS - t0)) s)"
  mounts_up
  wait_for 30 "the Slurm nodes to be idle" slurm_nodes_idle
  trap - EXIT
  print_env >"$dir/env"
  log "up in $((SECONDS - t0)) s: $nodes nodes, CephFS at $cephfs; eval \"\$($self env)\""
}

# MDBENCH_TESTBED_SERVER_STATS is command-line words, one --server-stats=ceph-mds:SOCKET per MDS, so that
# the variable unquoted on a command line is all it takes (its words cannot split wrongly: up refuses a state
# directory with white space); MDBENCH_TESTBED_MDS_SOCKETS is the sockets alone, for scripts.
print_env() {
  local sockets="" stats="" s
  # Every MDS, the standby too: after a failover it holds a rank, and its counters are the rank's.
  for s in a b c; do sockets+=" $dir/ceph/run/mds.$s.asok" stats+=" --server-stats=ceph-mds:$dir/ceph/run/mds.$s.asok"; done
  stats+=" --server-stats=ganesha:$(nfs_bus)"
  cat <<EOF
export MDBENCH_TESTBED_DIR='$dir'
export MDBENCH_TESTBED_NETNS='$tag'
export SLURM_CONF='$slurm_conf'
export CEPH_CONF='$conf'
export MDBENCH_TESTBED_CEPHFS='$cephfs'
export MDBENCH_TESTBED_NODES='$(node_names | sed 's/ $//')'
export MDBENCH_TESTBED_HEAD='$(head_ip)'
export MDBENCH_TESTBED_SERVER_STATS='${stats# }'
export MDBENCH_TESTBED_MDS_SOCKETS='${sockets# }'
export MDBENCH_TESTBED_MPIEXEC='$self mpiexec'
export MDBENCH_TESTBED_EXEC='$self exec'
export MDBENCH_TESTBED_LAUNCHER='$here/testbed/ssh-launcher'
export MDBENCH_TESTBED_CEPHFS_USER='mdbench'
EOF
  nfs_print_env
}

# ------------------------------------------------------------------------------------------------------- MPI
# Hydra's ssh launcher runs: LAUNCHER [ssh options] HOST COMMAND...; run COMMAND in HOST's namespaces the way
# ssh would (one shell command line).
ssh_launch() {
  while [ $# -gt 0 ]; do
    case $1 in
      -[bcDEeFIiJLlmOopQRSWw]) shift 2 ;;
      -*) shift ;;
      *) break ;;
    esac
  done
  [ $# -ge 1 ] || die "ssh-launcher: no host given"
  local host=$1 node=""
  shift
  for n in $(node_names); do
    if [ "$host" = "$n" ] || [ "$host" = "$(node_ip "$n")" ]; then node=$n; fi
  done
  if [ -z "$node" ]; then
    case $host in
      head | "$(hostname)" | "$(head_ip)" | localhost) exec /bin/bash -c "$*" ;;
      *) die "ssh-launcher: '$host' is no node of the test bed in $dir ($(node_names))" ;;
    esac
  fi
  local cmd
  in_node_cmd "$node" /bin/bash -c "$*"  # bash execs a lone command: the proxy replaces it
  exec "${cmd[@]}"
}

run_mpiexec() {
  [ -e "$marker" ] || die "no test bed in $dir (scripts/testbed.sh up)"
  local a hosts=(-hosts "$(node_names | sed 's/ $//; s/ /,/g')")
  for a in "$@"; do
    case $a in -hosts | -host | -f | -hostfile | -machinefile) hosts=() ;; esac
  done
  exec env -u HYDRA_LAUNCHER -u HYDRA_LAUNCHER_EXEC -u HYDRA_HOST_FILE -u HYDRA_RMK MDBENCH_TESTBED_DIR="$dir" \
    mpiexec -launcher ssh -launcher-exec "$here/testbed/ssh-launcher" -localhost "$(head_ip)" "${hosts[@]}" "$@"
}

run_exec() {
  [ $# -ge 2 ] || die "usage: testbed.sh exec NODE CMD..."
  [ -e "$marker" ] || die "no test bed in $dir (scripts/testbed.sh up)"
  local node=$1
  shift
  if [ "$node" = head ]; then exec "$@"; fi
  { is_node "$node" && node_exists "$node"; } || die "exec: '$node' is no node of the test bed in $dir ($(node_names))"
  local cmd
  in_node_cmd "$node" "$@"
  exec "${cmd[@]}"
}

usage() {
  echo "usage: $0 up|down|status|env | exec NODE CMD... | pids NODE | mpiexec ARGS... | nfs-restart   (state in \$MDBENCH_TESTBED_DIR," \
    "default /tmp/mdbench-testbed; see docs/testbed.md)" >&2
  exit 2
}

sub=${1:-}
[ $# -gt 0 ] && shift
case $sub in
  up) up ;;
  down)
    [ "$(id -u)" = 0 ] || die "must run as root"
    t0=$SECONDS
    down
    log "down in $((SECONDS - t0)) s (${down_steps:-nothing was up}; logs left in $dir)"
    ;;
  status) status ;;
  env)
    [ -e "$marker" ] || die "no test bed in $dir (scripts/testbed.sh up)"
    print_env
    ;;
  exec) run_exec "$@" ;;
  pids)
    { [ $# = 1 ] && is_node "$1" && node_exists "$1"; } || die "usage: testbed.sh pids NODE (one of: $(node_names))"
    ip netns pids "$(netns_of "$1")"
    ;;
  mpiexec) run_mpiexec "$@" ;;
  nfs-restart) detach && nfs_restart ;;
  __mds-keeper) mds_keeper ;;  # mds_keeper_up starts it
  ssh-launch) ssh_launch "$@" ;;
  *) usage ;;
esac
