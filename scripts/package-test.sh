#!/usr/bin/env bash
# Install test: builds the .deb with CPack, checks its control fields and that its Depends cover every library
# the binary links, that apt can resolve it, then unpacks it into a fresh directory tree and runs the unpacked
# mdbench (--version, a 2-rank workload, validate), renders the man page with warnings on and drives the bash
# completion. Also checks the `cmake --install` layout. Removes everything it made; exit 1 on any failure.
# Uses the build in ./build (or $MDBENCH_BUILD_DIR), building what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${MDBENCH_BUILD_DIR:-build}
export HYDRA_LAUNCHER=fork HYDRA_RMK=user

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mdbench-package.XXXXXX")
shm=$(mktemp -d /dev/shm/mdbench-package.XXXXXX)
# cmake --install and cpack leave an install_manifest.txt in the build directory: not ours to keep.
had_manifest=$([ -e "$build/install_manifest.txt" ] && echo yes || echo no)
cleanup() {
  rm -rf "$tmp" "$shm"
  if [ "$had_manifest" = no ]; then rm -f "$build/install_manifest.txt"; fi
}
trap cleanup EXIT
checks=0
ok() {
  checks=$((checks + 1))
  echo "package-test: ok: $*"
}
fail() {
  echo "package-test: FAIL: $*" >&2
  exit 1
}

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE="${MDBENCH_BUILD_TYPE:-RelWithDebInfo}" >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
version=$("$build/mdbench" --version | sed -n '1s/^mdbench \([^ ]*\).*/\1/p')
[ -n "$version" ] || fail "cannot read the version from $build/mdbench --version"

# cmake --install: the usual layout under a prefix.
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
for f in bin/mdbench share/man/man1/mdbench.1.gz share/bash-completion/completions/mdbench \
  share/mdbench/jobscripts/README.md share/mdbench/results-schema/schema.json \
  share/mdbench/results-schema/README.md; do
  [ -f "$tmp/prefix/$f" ] || fail "cmake --install: no $f"
done
for f in share/mdbench/jobscripts/slurm/mdbench.sbatch share/mdbench/jobscripts/pbs/mdbench.pbs; do
  [ -x "$tmp/prefix/$f" ] || fail "cmake --install: $f missing or not executable"
done
ok "cmake --install lays out bin, man1, bash completion, share/mdbench/{jobscripts,results-schema}"

# The package and its control fields.
(cd "$build" && cpack -G DEB -B "$tmp/out" >"$tmp/cpack.log" 2>&1) || {
  cat "$tmp/cpack.log" >&2
  fail "cpack -G DEB"
}
debs=("$tmp"/out/mdbench_*.deb)
if [ "${#debs[@]}" -ne 1 ] || [ ! -f "${debs[0]}" ]; then fail "cpack made no single mdbench_*.deb: ${debs[*]}"; fi
deb=${debs[0]}
ok "cpack built $(basename "$deb")"
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = mdbench ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', the binary says $version"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture is '$(field Architecture)'"
[ -n "$(field Maintainer)" ] || fail "no Maintainer"
depends=$(field Depends)
for p in libmpich12 libhdf5-mpich-103-1 libboost-program-options1.74.0 libfmt9; do
  [[ ", $depends," == *", $p"[\ ,]* ]] || fail "Depends lacks $p: $depends"
done
ok "control: Package mdbench, Version $version, Depends: $depends"

dpkg -x "$deb" "$tmp/root"
bin=$tmp/root/usr/bin/mdbench
[ -x "$bin" ] || fail "the package has no usr/bin/mdbench"
# Every library the binary needs directly comes from a package the Depends name.
mapfile -t needed < <(readelf -d "$bin" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ "${#needed[@]}" -gt 0 ] || fail "readelf found no NEEDED entries"
for lib in "${needed[@]}"; do
  path=$(ldconfig -p | awk -v lib="$lib" '$1 == lib && !found { print $NF; found = 1 }')
  [ -n "$path" ] || fail "$lib is not installed here"
  # With merged /usr a library is found as /lib/... or /usr/lib/..., and dpkg knows one of them.
  real=$(readlink -f "$path")
  owner=''
  for candidate in "$path" "$real" "${real#/usr}" "/usr$path"; do
    owner=$(dpkg -S "$candidate" 2>/dev/null | head -n 1 | cut -d: -f1 || true)
    [ -z "$owner" ] || break
  done
  [ -n "$owner" ] || fail "no package owns $path"
  [[ ", $depends," == *", $owner"[\ ,]* ]] || fail "$lib comes from $owner, which Depends does not name"
done
ok "Depends covers every NEEDED library: ${needed[*]}"
if readelf -d "$bin" | grep -Eq 'RPATH|RUNPATH'; then fail "the packaged binary has an RPATH"; fi
ok "no RPATH in the packaged binary"

apt-get install -s "$deb" >"$tmp/apt.log" 2>&1 || {
  cat "$tmp/apt.log" >&2
  fail "apt-get install -s $deb"
}
grep -q '^Inst mdbench' "$tmp/apt.log" || fail "apt-get -s would not install mdbench: $(cat "$tmp/apt.log")"
ok "apt-get install -s ./$(basename "$deb") resolves"

for f in usr/share/man/man1/mdbench.1.gz usr/share/bash-completion/completions/mdbench \
  usr/share/mdbench/jobscripts/slurm/mdbench.sbatch usr/share/mdbench/results-schema/schema.json; do
  [ -f "$tmp/root/$f" ] || fail "the package has no $f"
done
ok "the package holds the man page, the completion, the job scripts and the schema"

# The unpacked copy runs, far from the build tree.
"$bin" --version >"$tmp/version.txt" || fail "$bin --version"
grep -q "^mdbench $version (commit " "$tmp/version.txt" || fail "--version: $(cat "$tmp/version.txt")"
grep -q '^MPI: ' "$tmp/version.txt" || fail "--version names no MPI library"
grep -q '^HDF5: ' "$tmp/version.txt" || fail "--version names no HDF5 version"
ok "unpacked mdbench --version: $(tr '\n' ' ' <"$tmp/version.txt")"
mpiexec -n 2 "$bin" -n 100 -d "$shm/t" -o "$tmp/r.h5" >"$tmp/run.log" 2>&1 || {
  cat "$tmp/run.log" >&2
  fail "mpiexec -n 2 mdbench -n 100"
}
[ ! -e "$shm/t" ] || fail "the run left $shm/t behind"
"$bin" validate "$tmp/r.h5" >"$tmp/validate.log" || fail "validate: $(cat "$tmp/validate.log")"
ok "unpacked mdbench ran 2 ranks x 100 items on tmpfs, left nothing, and its results file validates"

# The man page renders without a warning.
man_gz=$tmp/root/usr/share/man/man1/mdbench.1.gz
warnings=$(MANWIDTH=80 man --warnings -l "$man_gz" 2>&1 >/dev/null)
[ -z "$warnings" ] || fail "man --warnings: $warnings"
warnings=$(zcat "$man_gz" | groff -ww -man -z 2>&1)
[ -z "$warnings" ] || fail "groff -ww: $warnings"
MANWIDTH=80 man -l "$man_gz" 2>/dev/null | grep -q 'mdbench validate' || fail "the man page shows no validate section"
ok "man -l mdbench.1.gz renders without warnings (man --warnings, groff -ww)"

# The completion: valid bash, and it completes options, subcommands and values.
completion=$tmp/root/usr/share/bash-completion/completions/mdbench
bash -n "$completion" || fail "bash -n on the completion"
complete_words() {
  # shellcheck disable=SC2016 # expanded by the inner bash
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _mdbench; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$completion" "$@" | sort | tr '\n' ' '
}
expect_completion() {
  local want=$1
  shift
  local got
  got=$(complete_words "$@")
  [ "$got" = "$want" ] || fail "completion of '$*': got '$got', want '$want'"
}
expect_completion "--items --items-per-dir --iterations " mdbench --it
expect_completion "validate " mdbench val
expect_completion "csv json " mdbench export --format ""
expect_completion "io500-easy io500-hard " mdbench --preset io
expect_completion "--dry-run " mdbench clean --dr
expect_completion "--junit " mdbench check --ju
ok "bash completion: --it, val, export --format, --preset, clean --dr, check --ju"

# docs/install.md's commands (its `doc-test: package` blocks, tests/e2e/doc_commands.py), as written, from the
# top of the tree: in a private mount namespace whose /opt, /usr, /etc, /var and ./build are overlays on a
# scratch directory, so that they install for real (cmake --install into /opt, apt-get install of the
# package, man) and leave nothing behind.
[ "$(id -u)" -eq 0 ] || fail "docs/install.md's commands need root (a private mount namespace)"
[ "$(realpath "$build")" = "$(realpath build)" ] || fail "docs/install.md's commands name ./build: run with the build in ./build"
mapfile -d '' -t doc_blocks < <(/usr/bin/python3 tests/e2e/doc_commands.py blocks . package)
[ "${#doc_blocks[@]}" -ge 2 ] || fail "docs/install.md has ${#doc_blocks[@]} blocks marked doc-test: package, expected 2"
# shellcheck disable=SC2016 # expanded by the inner bash
unshare -m --propagation private bash -euo pipefail -c '
  scratch=$1
  shift
  for d in /opt /usr /etc /var "$PWD/build"; do
    n=$(printf %s "$d" | tr / _)
    mkdir -p "$scratch/$n/up" "$scratch/$n/work"
    mount -t overlay overlay -o "lowerdir=$d,upperdir=$scratch/$n/up,workdir=$scratch/$n/work" "$d"
  done
  for block in "$@"; do
    echo "package-test: docs/install.md: $block" | head -n 1
    bash -euo pipefail -c "$block" </dev/null >"$scratch/block.log" 2>&1 || { cat "$scratch/block.log" >&2; exit 1; }
  done
  [ -x /opt/mdbench/0.1.0/bin/mdbench ] || { echo "no /opt/mdbench/0.1.0/bin/mdbench" >&2; exit 1; }
  dpkg-query -W -f="\${Status}" mdbench | grep -q "install ok installed" || { echo "mdbench not installed" >&2; exit 1; }
  grep -q "mdbench validate" "$scratch/block.log" || { echo "man mdbench printed no page" >&2; exit 1; }
' _ "$tmp/ns" "${doc_blocks[@]}" || fail "docs/install.md's commands as written"
ok "docs/install.md's ${#doc_blocks[@]} blocks as written: cmake --install into /opt, cpack, apt-get install, man"

echo "package-test: $checks checks passed"
