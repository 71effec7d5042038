#!/usr/bin/env bash
# Installs the Debian 12 packages mdbench needs to build and test, if any is missing. Idempotent.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git
  mpich libmpich-dev libhdf5-mpich-dev hdf5-tools
  libboost-program-options-dev libfmt-dev libgtest-dev
  clang-format shellcheck nlohmann-json3-dev python3-h5py python3-numpy
  slurm-wlm munge librsvg2-bin libxml2-utils
  clang libclang-rt-14-dev llvm
  man-db dpkg-dev universal-ctags strace
  # The test bed (scripts/testbed.sh): CephFS servers and client, Torque's qsub over Slurm, setfattr.
  ceph-mon ceph-osd ceph-mds ceph-mgr ceph-fuse ceph-common slurm-wlm-torque attr
  # Its NFS gateway: NFS-Ganesha (FSAL CEPH and VFS), rpcbind for v3, a private bus for the statistics
  # (dbus-send), libnfs's tools as clients.
  nfs-ganesha nfs-ganesha-ceph nfs-ganesha-vfs rpcbind dbus-daemon dbus-bin libnfs-utils
  # -a CEPHFS: libcephfs (cmake/cephfs.cmake finds it; without it the backend is not built in).
  libcephfs-dev
  # -a LIBNFS: libnfs (cmake/libnfs.cmake finds it; without it the backend is not built in).
  libnfs-dev
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -eq 0 ] && [ -z "${MDBENCH_FORCE_APT:-}" ]; then
  exit 0
fi

sudo=()
[ "$(id -u)" -eq 0 ] || sudo=(sudo)
echo "Installing: ${missing[*]:-(refresh)}" >&2
export DEBIAN_FRONTEND=noninteractive
# Packages' post-install scripts must not start daemons (munge, slurm, ceph) on the build machine: a
# policy-rc.d that refuses every start while apt runs, unless the machine has one of its own.
policy=/usr/sbin/policy-rc.d
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\n# scripts/deps.sh: no daemon starts during package installation\nexit 101\n' |
    "${sudo[@]}" tee "$policy" >/dev/null
  "${sudo[@]}" chmod 755 "$policy"
  trap '"${sudo[@]}" rm -f "$policy"' EXIT
fi
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
