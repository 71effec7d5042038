#!/usr/bin/python3
"""Monitor commands for scripts/testbed.sh in one process (each `ceph` command costs 2-3 s here).

usage: ceph-mon.py CONF create FS OSD_UUID   osd.0, the FS's two pools, the FS with max_mds 2
       ceph-mon.py CONF wait-active FS N SECONDS   waits until FS has N active MDS
       ceph-mon.py CONF wait-standby FS N SECONDS  waits until N MDS daemons stand by (ceph fs dump)
"""
import json
import sys
import time

import rados


def command(cluster, **cmd):
    ret, out, err = cluster.mon_command(json.dumps(cmd), b"", timeout=30)
    if ret != 0:
        sys.exit(f"ceph-mon.py: {cmd['prefix']} failed ({ret}): {err}")
    return out


def create(cluster, fs, uuid):
    out = command(cluster, prefix="osd new", uuid=uuid, id=0, format="json")
    if json.loads(out).get("osdid") != 0:
        sys.exit(f"ceph-mon.py: osd new gave {out!r}, not osd.0")
    for pool in (f"{fs}_metadata", f"{fs}_data"):
        command(cluster, prefix="osd pool create", pool=pool, pg_num=16)
    command(cluster, prefix="fs new", fs_name=fs, metadata=f"{fs}_metadata", data=f"{fs}_data")
    command(cluster, prefix="fs set", fs_name=fs, var="max_mds", val="2")


def active_count(cluster, fs):
    dump = json.loads(command(cluster, prefix="fs get", fs_name=fs, format="json"))
    info = dump["mdsmap"]["info"].values()
    return sum(1 for mds in info if mds.get("state") == "up:active")


def wait_active(cluster, fs, want, seconds):
    deadline = time.monotonic() + seconds
    while (have := active_count(cluster, fs)) < want:
        if time.monotonic() > deadline:
            sys.exit(f"ceph-mon.py: {fs} has {have} active MDS after {seconds} s, not {want}")
        time.sleep(0.2)


def standby_count(cluster):
    return len(json.loads(command(cluster, prefix="fs dump", format="json")).get("standbys", []))


def wait_standby(cluster, want, seconds):
    deadline = time.monotonic() + seconds
    while (have := standby_count(cluster)) < want:
        if time.monotonic() > deadline:
            sys.exit(f"ceph-mon.py: {have} standby MDS after {seconds} s, not {want}")
        time.sleep(0.2)


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    cluster = rados.Rados(conffile=argv[1])
    cluster.connect(timeout=30)
    try:
        if argv[2] == "create" and len(argv) == 5:
            create(cluster, argv[3], argv[4])
        elif argv[2] == "wait-active" and len(argv) == 6:
            wait_active(cluster, argv[3], int(argv[4]), float(argv[5]))
        elif argv[2] == "wait-standby" and len(argv) == 6:
            wait_standby(cluster, int(argv[4]), float(argv[5]))
        else:
            sys.exit(__doc__)
    finally:
        cluster.shutdown()


if __name__ == "__main__":
    main(sys.argv)
