#!/usr/bin/env bash
# Bad input, every option: garbage, negative, overflowing, fractional, empty, zero and contradictory values,
# paths too long, stonewall files that cannot be used, and the subcommands' bad usage. Each case: the exit
# status (2 for bad usage), a message naming the option once (rank 0 only), nothing on the file system
# touched, no hang; at 1 rank the whole table, under mpiexec with 2 and 4 ranks the rows marked so, where
# every rank must exit with the same status. Cases come from the tables below: adding one is one line.
# (e2e_errors.sh covers the exit statuses of runs that start; this covers what must never start.)
# Usage: e2e_badinput.sh <shm|disk> [RANK COUNTS]: only the cases at those rank counts ("1", "2 4"; all by
# default), so that CTest runs the singleton cases and each mpiexec size as tests of their own, side by side.
ONLY=" ${2:-1 2 4} "
source "$(dirname "$0")/lib.sh" "$1"

# The directory every case runs in (its default target and results file would appear here) and the files
# the cases point at. Its fingerprint must not change.
W=$BASE/w
mkdir -p "$W/adir"
mkfifo "$W/fifo"
ln -s "$W/nowhere" "$W/dangling"
echo "my notes" >"$W/plain"
printf 'mdbench stonewall 1\nfiles 5\n' >"$W/sw"
printf 'mdbench stonewall 1\nfiles 12x\n' >"$W/badsw"
: >"$W/emptyfile"
printf 'file-create >= 1\n' >"$W/rules"
printf 'file-create >= 1\n\0\001\n' >"$W/binary"
printf '# only a comment\n\n' >"$W/norules"
FINGERPRINT=$(fingerprint "$W")

# Values the tables refer to.
LONG=$(printf '%5000s' '' | tr ' ' a)  # a path of 5000 bytes
NAME300=$(printf '%300s' '' | tr ' ' c)  # one name of 300 bytes
NL=$'\n'
# shellcheck disable=SC2089,SC2090  # the quotes and backslash are part of the name, on purpose
ODD=$'sp ace\ttab\'quote"$*\\\xff'  # odd bytes, no NUL
: "$LONG$NAME300$NL$ODD"  # used by the tables, through eval

# Each rank's exit status, from a wrapper that mpiexec starts in place of mdbench.
RCDIR=$BASE/rcs
mkdir "$RCDIR"
WRAP=$BASE/rank-status.sh
cat >"$WRAP" <<'EOF'
#!/usr/bin/env bash
"$MDBENCH" "$@"
rc=$?
echo "$rc" >"$RCDIR/rank.${PMI_RANK:-x}"
exit "$rc"
EOF
export RCDIR MDBENCH

declare -A COUNT=()  # cases run, per "category np"
TOTAL=0

# check_case CATEGORY NP WANT ARGS EXPECTED: one case, one verdict. NP 1 is a singleton (no mpiexec).
check_case() {
  local category=$1 np=$2 want=$3 args=$4 expected=$5 problems=() line dup rc_file n=0
  eval "set -- $args"
  rm -f "$RCDIR"/rank.*
  if [ "$np" = 1 ]; then
    (cd "$W" && timeout -k 5 30 "$MDBENCH" "$@" </dev/null >"$OUT" 2>"$ERR")
  else
    (cd "$W" && timeout -k 5 30 "$MPIEXEC" -n "$np" bash "$WRAP" "$@" </dev/null >"$OUT" 2>"$ERR")
  fi
  RC=$?
  [ "$RC" = 124 ] || [ "$RC" = 137 ] && problems+=("a hang (killed after 30 s)")
  [ "$RC" = "$want" ] || problems+=("exit status $RC, expected $want")
  if [ "$want" = 0 ]; then
    grep -qF -- "$expected" "$OUT" || problems+=("'$expected' not on stdout")
  elif ! grep -qF -- "$expected" "$ERR" && ! grep -qF -- "$expected" "$OUT"; then
    problems+=("'$expected' not in the message")
  fi
  grep -q "internal error\|Assertion\|terminate called\|Segmentation\|BAD TERMINATION" "$ERR" &&
    problems+=("a crash")
  dup=$(sort "$ERR" | uniq -d | head -2)
  [ -z "$dup" ] || problems+=("printed more than once: $dup")
  if [ "$np" != 1 ]; then
    for rc_file in "$RCDIR"/rank.*; do
      [ -e "$rc_file" ] || continue
      n=$((n + 1))
      line=$(cat "$rc_file")
      [ "$line" = "$want" ] || problems+=("$(basename "$rc_file") exited $line")
    done
    [ "$n" = "$np" ] || problems+=("$n of $np ranks reported an exit status")
  fi
  [ "$(fingerprint "$W")" = "$FINGERPRINT" ] || problems+=("touched: $(find "$W" -mindepth 1 -maxdepth 1 -newer "$W/rules" -printf '%f ')")
  COUNT["$category $np"]=$((${COUNT["$category $np"]:-0} + 1))
  TOTAL=$((TOTAL + 1))
  if [ "${#problems[@]}" = 0 ]; then
    pass
  else
    fail "[$category, $np rank(s)] mdbench ${args:0:120}: $(printf '%s; ' "${problems[@]}")"
    # Leave the next case a clean directory to compare against.
    find "$W" -mindepth 1 -maxdepth 1 \( -name 'mdbench*' -o -name nowhere \) -exec rm -rf {} +
    FINGERPRINT=$(fingerprint "$W")
  fi
}

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }

# Runs every row: "CATEGORY | RANKS | ARGS | EXPECTED". RANKS: the rank counts (1 = singleton, and 2 and 4
# under mpiexec). ARGS is shell words (quotes and $VARIABLES above); every case must exit 2, except the
# category "wins" (help and version win over every problem: exit 0, EXPECTED on stdout).
run_table() {
  local category ranks args expected np
  while IFS='|' read -r category ranks args expected; do
    category=$(trim "$category")
    [ -z "$category" ] || [ "${category:0:1}" = "#" ] && continue
    for np in $ranks; do
      [[ $ONLY == *" $np "* ]] || continue
      check_case "$category" "$np" "$([ "$category" = wins ] && echo 0 || echo 2)" "$(trim "$args")" \
        "$(trim "$expected")"
    done
  done
}

run_table <<'TABLE'
# ---- garbage: words, trailing junk, other notations, switches given a value, unknown options
garbage       | 1 2 4 | -n abc                         | -n/--items: 'abc' is not a whole number
garbage       | 1     | -n 12abc                       | -n/--items: '12abc' is not a whole number
garbage       | 1     | -n ' 5'                        | -n/--items: ' 5' is not a whole number
garbage       | 1     | -n 0x10                        | -n/--items: '0x10' is not a whole number
garbage       | 1     | -n +5                          | -n/--items: '+5' is not a whole number
garbage       | 1 2   | -z abc                         | -z/--depth: 'abc' is not a whole number
garbage       | 1 4   | -b two                         | -b/--branching: 'two' is not a whole number
garbage       | 1 2   | -I many                        | -I/--items-per-dir: 'many' is not a whole number
garbage       | 1 4   | -i once                        | -i/--iterations: 'once' is not a whole number
garbage       | 1 2   | -N next                        | -N/--shift: 'next' is not a whole number
garbage       | 1 4   | --random=abc                   | -R/--random: 'abc' is not a whole number
garbage       | 1     | -R 7x                          | -R/--random: '7x' is not a whole number
garbage       | 1     | -R abc                         | unexpected argument 'abc'
garbage       | 1 2   | -W soon                        | -W/--stonewall: 'soon' is not a number of seconds
garbage       | 1     | -W inf                         | -W/--stonewall: 'inf' is not a number of seconds
garbage       | 1     | -W nan                         | -W/--stonewall: 'nan' is not a number of seconds
garbage       | 1     | -W 5s                          | -W/--stonewall: '5s' is not a number of seconds
garbage       | 1 4   | -p later                       | -p/--pre-delay: 'later' is not a number of seconds
garbage       | 1 2   | -w lots                        | -w/--write-bytes: 'lots' is not a byte count
garbage       | 1     | -w 5kk                         | -w/--write-bytes: '5kk' is not a byte count
garbage       | 1     | -w k                           | -w/--write-bytes: 'k' is not a byte count
garbage       | 1     | -w 5t                          | -w/--write-bytes: '5t' is not a byte count
garbage       | 1 4   | -e lots                        | -e/--read-bytes: 'lots' is not a byte count
garbage       | 1 2   | --preset io500                 | --preset: unknown preset 'io500' (expected io500-easy or io500-hard)
garbage       | 1     | --preset IO500-EASY -n 5       | --preset: unknown preset 'IO500-EASY'
garbage       | 1 4   | --sweep all                    | --sweep: 'all': 'all' is not a whole number
garbage       | 1     | --sweep 1,2,x                  | --sweep: '1,2,x': 'x' is not a whole number
garbage       | 1     | --sweep 1,,2                   | --sweep: '1,,2' has an empty step
garbage       | 1 2   | --sweep 1 --sweep-placement nodes | --sweep-placement: unknown placement 'nodes'
garbage       | 1     | --sweep-placement nodes        | --sweep-placement: unknown placement 'nodes'
garbage       | 1 4   | -f one -l 2                    | -f/--sweep-first: 'one' is not a whole number
garbage       | 1     | -l two                         | -l/--sweep-last: 'two' is not a whole number
garbage       | 1     | -s one -l 2                    | -s/--sweep-stride: 'one' is not a whole number
garbage       | 1 2   | --unique-dir=yes               | -u/--unique-dir: takes 0 (off) or a whole number (on), got '--unique-dir=yes'
garbage       | 1     | --leaf-only=yes                | -L/--leaf-only: takes 0 (off) or a whole number (on)
garbage       | 1     | --files-only=yes               | -F/--files-only: takes 0 (off) or a whole number (on)
garbage       | 1     | --dirs-only=yes                | -D/--dirs-only: takes 0 (off) or a whole number (on)
garbage       | 1     | --shared-files=yes             | -S/--shared-files: takes 0 (off) or a whole number (on)
garbage       | 1 4   | --create=yes                   | -C/--create: takes 0 (off) or a whole number (on)
garbage       | 1     | --stat=yes                     | -T/--stat: takes 0 (off) or a whole number (on)
garbage       | 1     | --read=yes                     | -E/--read: takes 0 (off) or a whole number (on)
garbage       | 1     | --remove=yes                   | -r/--remove: takes 0 (off) or a whole number (on)
garbage       | 1     | --rename=yes                   | -U/--rename: takes 0 (off) or a whole number (on)
garbage       | 1     | --readdir=yes                  | --readdir: takes 0 (off) or a whole number (on)
garbage       | 1     | --file-rename=yes              | --file-rename: takes 0 (off) or a whole number (on)
garbage       | 1     | --renamed=yes                  | --renamed: takes 0 (off) or a whole number (on)
garbage       | 1     | --print-rate-and-time=yes      | -P/--print-rate-and-time: takes 0 (off) or a whole number (on)
garbage       | 1     | --time-unique-overhead=yes     | -t/--time-unique-overhead: takes 0 (off) or a whole number (on)
garbage       | 1     | --fsync=yes                    | -y/--fsync: takes 0 (off) or a whole number (on)
garbage       | 1     | --sync=yes                     | -Y/--sync: takes 0 (off) or a whole number (on)
garbage       | 1     | --verify=yes                   | -X/--verify: takes 0 (off) or a whole number (on)
garbage       | 1 2   | --keep=yes                     | --keep: takes 0 (off) or a whole number (on)
garbage       | 1     | --force=yes                    | --force: takes 0 (off) or a whole number (on)
garbage       | 1     | --append=yes                   | --append: takes 0 (off) or a whole number (on)
garbage       | 1     | --help=yes                     | -h/--help: takes 0 (off) or a whole number (on)
garbage       | 1     | --version=yes                  | --version: takes 0 (off) or a whole number (on)
garbage       | 1     | --verbose=x                    | -v/--verbose: takes 0 (off) or a whole number (on)
garbage       | 1     | -v=x                           | -v/--verbose: takes 0 (off) or a whole number (on), got '-v=x'
garbage       | 1     | -F=-1                          | -F/--files-only: takes 0 (off) or a whole number (on), got '-F=-1'
garbage       | 1 2   | -a MPIIO                       | -a/--api: MPIIO is an ior backend that mdtest cannot run either (mdbench supports POSIX, DUMMY, CEPHFS and LIBNFS)
garbage       | 1     | -a DUMMY --posix.odirect       | --posix.odirect is an option of -a POSIX, and this run's backend is DUMMY (-a POSIX for it)
garbage       | 1     | --dummy.delay-create=5         | --dummy.delay-create is an option of -a DUMMY, and this run's backend is POSIX
garbage       | 1     | --cephfs.user=x                | --cephfs.user is an option of -a CEPHFS, and this run's backend is POSIX (-a CEPHFS for it)
garbage       | 1 2   | -a LIBNFS -k --libnfs.url=nfs://127.0.0.1/e/ | -k/--mknod makes files with mknod, which -a LIBNFS has no call for (NFS makes a regular file only by CREATE (v3) or OPEN (v4); MKNOD makes special files alone)
garbage       | 1     | -a CEPHFS --path-style dirfd   | --path-style dirfd: libcephfs names every item by its path inside the CephFS
garbage       | 1 2   | -a CEPHFS --cephfs.conf=/nonexistent/ceph.conf | -a CEPHFS: cannot read the ceph configuration /nonexistent/ceph.conf (--cephfs.conf)
garbage       | 1 2   | -a LIBNFS -Y --libnfs.url=nfs://127.0.0.1/e/ | -Y/--sync syncs the file system after each phase, which -a LIBNFS has no call for
garbage       | 1     | -a LIBNFS --libnfs.url=nfs:/x/  | --libnfs.url nfs:/x/: not an NFS URL libnfs reads
garbage       | 1     | --posix.lustre.stripecount=2   | unknown option '--posix.lustre.stripecount': -a POSIX has no such option (mdtest has it only when built with that file system's headers)
garbage       | 1     | --mpiio.showHints              | unknown option '--mpiio.showHints': an ior backend option; mdbench's backends (POSIX, DUMMY, CEPHFS and LIBNFS) have no such option
garbage       | 1     | -V many                        | -V/--verbosity: 'many' is not a whole number
garbage       | 1     | -G x                           | -G/--buffer-offset: 'x' is not a whole number from -2147483648 to 2147483647
garbage       | 1     | -B=x                           | -B/--no-barriers: 'x' is not a whole number
garbage       | 1     | --random-seed x                | --random-seed: 'x' is not a whole number
garbage       | 1     | --dataPacketType z             | --dataPacketType: unknown packet type 'z'
garbage       | 1     | --path-style relative          | --path-style: unknown path style 'relative' (expected full or dirfd)
garbage       | 1     | --sync-call fsync              | --sync-call: unknown sync call 'fsync' (expected sync or syncfs)
garbage       | 1     | -n=abc                         | -n/--items: 'abc' is not a whole number
garbage       | 1 4   | --bogus                        | unknown option '--bogus'
garbage       | 1     | --item 5                       | unknown option '--item'
garbage       | 1     | ---n 5                         | unknown option '---n'
garbage       | 1     | -q                             | unknown option '-q'
garbage       | 1     | -uqF                           | unknown option '-q' in '-uqF'
garbage       | 1 2   | stray                          | unexpected argument 'stray'
garbage       | 1     | -n 5 -- -u                     | unexpected argument '-u'
garbage       | 1     | -n                             | -n/--items: needs a value
garbage       | 1     | -d -u                          | -d/--dir: needs a value
garbage       | 1     | -u -P -t -u -P -t -n abc       | -n/--items: 'abc' is not a whole number
garbage       | 1 2   | --steady many                  | --steady: 'many' is not a whole number
garbage       | 1     | --steady 5 --datasets few      | --datasets: 'few' is not a whole number
garbage       | 1 4   | --series-interval often        | --series-interval: 'often' is not a number of seconds
garbage       | 1     | --progress soon                | --progress: 'soon' is not a number of seconds
# ---- negative
negative      | 1 2   | -n -5                          | -n/--items: '-5' is not a whole number
negative      | 1     | -z -1                          | -z/--depth: '-1' is not a whole number
negative      | 1     | -b -2                          | -b/--branching: '-2' is not a whole number
negative      | 1     | -I -1                          | -I/--items-per-dir: '-1' is not a whole number
negative      | 1 4   | -i -1                          | -i/--iterations: '-1' is not a whole number
negative      | 1     | -N -1                          | -N/--shift: '-1' is not a whole number
negative      | 1     | --random=-1                    | -R/--random: '-1' is not a whole number
negative      | 1 2   | -W -1                          | -W/--stonewall: '-1' is not a number of seconds
negative      | 1     | -p -0.5                        | -p/--pre-delay: '-0.5' is not a number of seconds
negative      | 1     | -w -1                          | -w/--write-bytes: '-1' is not a byte count
negative      | 1 4   | -e -1k                         | -e/--read-bytes: '-1k' is not a byte count
negative      | 1     | --sweep -1                     | --sweep: '-1': '-1' is not a whole number
negative      | 1     | --sweep 1,-2                   | --sweep: '1,-2': '-2' is not a whole number
negative      | 1     | -f -1 -l 2                     | -f/--sweep-first: '-1' is not a whole number
negative      | 1 2   | -l -2                          | -l/--sweep-last: '-2' is not a whole number
negative      | 1     | -s -1 -l 2                     | -s/--sweep-stride: '-1' is not a whole number
negative      | 1     | --steady -5                    | --steady: '-5' is not a whole number
negative      | 1     | --steady 5 --datasets -1       | --datasets: '-1' is not a whole number
negative      | 1 2   | --series-interval -0.1         | --series-interval: '-0.1' is not a number of seconds
negative      | 1     | --progress -1                  | --progress: '-1' is not a number of seconds
# ---- overflow: 1e30, 2^64, 20 nines; 2^32 for the 32-bit options; above the documented maxima
overflow      | 1 2 4 | -n 1e30                        | -n/--items: '1e30' is not a whole number
overflow      | 1     | -n 18446744073709551616        | -n/--items: '18446744073709551616' is out of range
overflow      | 1     | -n 99999999999999999999        | -n/--items: '99999999999999999999' is out of range
overflow      | 1     | -z 1e30                        | -z/--depth: '1e30' is not a whole number
overflow      | 1     | -z 18446744073709551616        | -z/--depth: '18446744073709551616' is out of range
overflow      | 1 2   | -z 4294967296                  | -z/--depth: '4294967296' is out of range (at most 4294967295)
overflow      | 1     | -b 99999999999999999999        | -b/--branching: '99999999999999999999' is out of range
overflow      | 1     | -b 4294967296                  | -b/--branching: '4294967296' is out of range
overflow      | 1     | -z 32 -b 2                     | a tree of depth 32 and branching 2 has more than 4294967296 directories
overflow      | 1     | -I 1e30                        | -I/--items-per-dir: '1e30' is not a whole number
overflow      | 1 4   | -I 18446744073709551616        | -I/--items-per-dir: '18446744073709551616' is out of range
overflow      | 1     | -I 18446744073709551615 -z 1 -b 2 -u | -I/--items-per-dir: 18446744073709551615 items over 3 directories is out of range
overflow      | 1     | -i 1e30                        | -i/--iterations: '1e30' is not a whole number
overflow      | 1     | -i 4294967296                  | -i/--iterations: '4294967296' is out of range
overflow      | 1 2   | -i 99999999999999999999        | -i/--iterations: '99999999999999999999' is out of range
overflow      | 1     | -N 1e30                        | -N/--shift: '1e30' is not a whole number
overflow      | 1 4   | -N 4294967296                  | -N/--shift: '4294967296' is out of range
overflow      | 1     | -N 18446744073709551616        | -N/--shift: '18446744073709551616' is out of range
overflow      | 1     | --random=1e30                  | -R/--random: '1e30' is not a whole number
overflow      | 1 2   | -R 18446744073709551616        | -R/--random: '18446744073709551616' is out of range
overflow      | 1     | -R 99999999999999999999        | -R/--random: '99999999999999999999' is out of range
overflow      | 1     | -W 1e30                        | -W/--stonewall: '1e30' is not a number of seconds
overflow      | 1 4   | -W 99999999999999999999        | -W/--stonewall: '99999999999999999999' is out of range (at most 1000000 seconds)
overflow      | 1     | -W 1000000.5                   | -W/--stonewall: '1000000.5' is out of range
overflow      | 1     | -p 1e30                        | -p/--pre-delay: '1e30' is not a number of seconds
overflow      | 1 2   | -p 18446744073709551616        | -p/--pre-delay: '18446744073709551616' is out of range
overflow      | 1     | -w 1e30                        | -w/--write-bytes: '1e30' is not a byte count
overflow      | 1 4   | -w 18446744073709551616        | -w/--write-bytes: '18446744073709551616' is more than 1 GiB
overflow      | 1     | -w 99999999999999999999k       | -w/--write-bytes: '99999999999999999999k' is more than 1 GiB
overflow      | 1     | -w 2g                          | -w/--write-bytes: '2g' is more than 1 GiB
overflow      | 1     | -w 1073741825                  | -w/--write-bytes: '1073741825' is more than 1 GiB
overflow      | 1     | -e 1e30                        | -e/--read-bytes: '1e30' is not a byte count
overflow      | 1 2   | -e 18446744073709551616g       | -e/--read-bytes: '18446744073709551616g' is more than 1 GiB
overflow      | 1     | -e 1025m                       | -e/--read-bytes: '1025m' is more than 1 GiB
overflow      | 1     | --sweep 1e30                   | --sweep: '1e30': '1e30' is not a whole number
overflow      | 1 4   | --sweep 4294967296             | --sweep: '4294967296': '4294967296' is out of range
overflow      | 1     | --sweep 1,99999999999999999999 | '99999999999999999999' is out of range
overflow      | 1     | -f 1e30 -l 2                   | -f/--sweep-first: '1e30' is not a whole number
overflow      | 1 2   | -l 4294967296                  | -l/--sweep-last: '4294967296' is out of range
overflow      | 1     | -l 18446744073709551616        | -l/--sweep-last: '18446744073709551616' is out of range
overflow      | 1 4   | -l 4294967295                  | 4294967295 steps, at most 65536
overflow      | 1     | -s 99999999999999999999 -l 2   | -s/--sweep-stride: '99999999999999999999' is out of range
overflow      | 1     | --steady 1e30                  | --steady: '1e30' is not a whole number
overflow      | 1     | --steady 18446744073709551616  | --steady: '18446744073709551616' is out of range
overflow      | 1     | --steady 5 --datasets 4294967296 | --datasets: '4294967296' is out of range
overflow      | 1 2   | --steady 5 --datasets 257 -n 257 | --datasets: 257 is more than 256
overflow      | 1 2   | --steady 9223372036854775798 -n 10 --datasets 1 | --steady: 9223372036854775798 rounds after 10 objects per dataset: object numbers must stay below 2^63
overflow      | 1     | --series-interval 1e30         | --series-interval: '1e30' is not a number of seconds
overflow      | 1     | --series-interval 99999999999  | --series-interval: '99999999999' is out of range (at most 1000000 seconds)
overflow      | 1     | --progress 1e30                | --progress: '1e30' is not a number of seconds
overflow      | 1     | --progress 99999999999         | --progress: '99999999999' is out of range (at most 1000000 seconds)
# ---- fractions where whole numbers are expected, and notations seconds do not take
fraction      | 1 2   | -n 1.5                         | -n/--items: '1.5' is not a whole number
fraction      | 1     | -n 10.0                        | -n/--items: '10.0' is not a whole number
fraction      | 1     | -z 0.5                         | -z/--depth: '0.5' is not a whole number
fraction      | 1     | -b 2.0                         | -b/--branching: '2.0' is not a whole number
fraction      | 1     | -I 1.5                         | -I/--items-per-dir: '1.5' is not a whole number
fraction      | 1 4   | -i 1.5                         | -i/--iterations: '1.5' is not a whole number
fraction      | 1     | -N 0.5                         | -N/--shift: '0.5' is not a whole number
fraction      | 1     | -R 1.5                         | -R/--random: '1.5' is not a whole number
fraction      | 1     | -w 1.5k                        | -w/--write-bytes: '1.5k' is not a byte count
fraction      | 1     | -e 0.5                         | -e/--read-bytes: '0.5' is not a byte count
fraction      | 1     | --sweep 1.5                    | --sweep: '1.5': '1.5' is not a whole number
fraction      | 1     | -f 1.5 -l 2                    | -f/--sweep-first: '1.5' is not a whole number
fraction      | 1     | -l 2.5                         | -l/--sweep-last: '2.5' is not a whole number
fraction      | 1     | -s 0.5 -l 2                    | -s/--sweep-stride: '0.5' is not a whole number
fraction      | 1     | -W .5                          | -W/--stonewall: '.5' is not a number of seconds
fraction      | 1     | -p 1.                          | -p/--pre-delay: '1.' is not a number of seconds
fraction      | 1     | -p 1,5                         | -p/--pre-delay: '1,5' is not a number of seconds
fraction      | 1     | --steady 2.5                   | --steady: '2.5' is not a whole number
fraction      | 1     | --steady 5 --datasets 1.5      | --datasets: '1.5' is not a whole number
fraction      | 1     | --series-interval 0.0001       | --series-interval: 0.0001 is not between 0.001
# ---- empty values
empty         | 1 2 4 | -n ''                          | -n/--items: empty value, expected a whole number
empty         | 1     | -d ''                          | -d/--dir: empty value, expected a directory
empty         | 1 2   | -d=                            | -d/--dir: empty value, expected a directory
empty         | 1     | --run-cmd-before-phase ''      | --run-cmd-before-phase: empty value, expected a command
empty         | 1     | --saveRankPerformanceDetails= | --saveRankPerformanceDetails: empty value, expected a file name
empty         | 1     | -d a@                          | -d/--dir: 'a@' has an empty directory name
empty         | 1     | -d @a -u                       | -d/--dir: '@a' has an empty directory name
empty         | 1     | -z ''                          | -z/--depth: empty value
empty         | 1     | -b ''                          | -b/--branching: empty value
empty         | 1     | -I ''                          | -I/--items-per-dir: empty value
empty         | 1 2   | -i ''                          | -i/--iterations: empty value
empty         | 1     | -N ''                          | -N/--shift: empty value
empty         | 1     | --random=                      | -R/--random: empty value
empty         | 1 4   | -W ''                          | -W/--stonewall: empty value, expected a number of seconds
empty         | 1     | -x ''                          | -x/--stonewall-file: empty value, expected a file name
empty         | 1     | -p ''                          | -p/--pre-delay: empty value
empty         | 1     | -w ''                          | -w/--write-bytes: empty value, expected a byte count
empty         | 1     | -e ''                          | -e/--read-bytes: empty value
empty         | 1 2   | -o ''                          | -o/--output: empty value, expected a file name
empty         | 1     | --preset '' -n 5               | --preset: unknown preset ''
empty         | 1     | --sweep ''                     | --sweep: empty value
empty         | 1     | --sweep ,                      | --sweep: ',' has an empty step
empty         | 1 4   | --sweep 1 --sweep-placement '' | --sweep-placement: unknown placement ''
empty         | 1     | -f '' -l 2                     | -f/--sweep-first: empty value
empty         | 1     | -l ''                          | -l/--sweep-last: empty value
empty         | 1     | -s '' -l 2                     | -s/--sweep-stride: empty value
empty         | 1     | --steady ''                    | --steady: empty value
empty         | 1     | --steady 5 --datasets ''       | --datasets: empty value
empty         | 1     | --series-interval ''           | --series-interval: empty value
empty         | 1 2   | --progress ''                  | --progress: empty value
# ---- zero where zero means nothing
zero          | 1 2   | -n 0                           | -n/--items: must be at least 1, got 0
zero          | 1     | -b 0 -z 1                      | -b/--branching: must be at least 1 for a tree of -z/--depth 1, got 0 (as mdtest)
zero          | 1     | -i 0                           | -i/--iterations: must be at least 1, got 0
zero          | 1     | --sweep 0                      | --sweep: '0': a step needs at least 1 rank
zero          | 1     | --sweep 0,1                    | --sweep: '0,1': a step needs at least 1 rank
zero          | 1     | -f 0 -l 2                      | -f/--sweep-first: must be at least 1, got 0
zero          | 1 2   | -l 0                           | -l/--sweep-last: must be at least 1, got 0
zero          | 1     | -s 0 -l 2                      | -s/--sweep-stride: must be at least 1, got 0
zero          | 1 2   | --steady 0                     | --steady: must be at least 1 round, got 0
zero          | 1     | --steady 5 --datasets 0        | --datasets: must be at least 1, got 0
zero          | 1     | --series-interval 0            | --series-interval: 0 is not between
# ---- contradictory combinations
contradictory | 1 2 4 | --force --append               | --force and --append exclude each other
contradictory | 1 2   | -S -u                          | -S/--shared-files and -u/--unique-dir exclude each other
contradictory | 1     | -D -E                          | -E/--read: the read phase reads files, not with -D/--dirs-only
contradictory | 1 4   | -B -N 1                        | -B/--no-barriers and -N/--shift 1 exclude each other
contradictory | 1     | -c -S                          | -c/--collective-creates and -S/--shared-files exclude each other (as mdtest)
contradictory | 1 2   | -c -B                          | -c/--collective-creates and -B/--no-barriers exclude each other (as mdtest)
contradictory | 1     | -c -u -d a@b                   | -c/--collective-creates and several -d/--dir directories exclude each other
contradictory | 1 2   | -k -w 5                        | -k/--mknod and -w/--write-bytes 5 exclude each other: mknod makes empty files (as mdtest)
contradictory | 1     | -D -X -E                       | -X/--verify: nothing read to verify
contradictory | 1     | -X -C -e 5 -w 5                | -X/--verify: needs the read phase (-E/--read), as in mdtest
contradictory | 1 2   | --warningAsErrors              | -E/--read: -e/--read-bytes is 0: the read phase only opens and closes each file (--warningAsErrors)
contradictory | 1     | -o a.h5 -o b.h5                | -o/--output: given more than once (at most a results file and a console style, mdtest or mdbench)
contradictory | 1     | -X -e 0                        | -X/--verify: nothing read to verify: needs -e/--read-bytes > 0
contradictory | 1     | -e 10 -w 5                     | -e/--read-bytes: 10 is more than -w/--write-bytes 5
contradictory | 1 4   | --keep -r                      | --keep and -r/--remove exclude each other
contradictory | 1     | --renamed --file-rename -T     | --renamed and --file-rename exclude each other
contradictory | 1     | --renamed -C                   | --renamed and -C/--create exclude each other
contradictory | 1     | -C -T -E -r -R -D -E           | -E/--read: the read phase reads files, not with -D/--dirs-only
contradictory | 1 4   | -I 4 -n 10                     | -n/--items: 10 is not a multiple of -I/--items-per-dir 4 (over a shared tree, as in mdtest
contradictory | 1     | -z 2 -b 2 -L -I 1 -n 5 -u      | -n/--items and -I/--items-per-dir: only specify the number of items or the number of items per directory with -u/--unique-dir (as mdtest)
contradictory | 1 2   | -d a@b                         | -d/--dir: 'a@b' needs -u/--unique-dir
contradictory | 1     | -d a@b -u -N 1                 | -N/--shift: 1 and several -d/--dir directories exclude each other
contradictory | 1 2   | --preset io500-easy            | --preset io500-easy needs -n/--items
contradictory | 1     | --preset io500-hard -n 5 -e 4k | -e/--read-bytes: 4096 is more than -w/--write-bytes 3901
contradictory | 1     | --preset io500-easy --preset io500-hard -n 5 | --preset: given more than once
contradictory | 1 4   | --sweep 1 --keep               | --sweep: every step creates and removes its items: not with --keep
contradictory | 1     | --sweep 1 -C                   | the phases must include -C/--create and -r/--remove
contradictory | 1     | --sweep 1 -T -E                | the phases must include -C/--create and -r/--remove
contradictory | 1 2   | --sweep 1 -f 1 -l 1            | --sweep and -f/--sweep-first, -l/--sweep-last, -s/--sweep-stride exclude each other
contradictory | 1     | --sweep pow2 -s 2              | --sweep and -f/--sweep-first
contradictory | 1     | -f 3 -l 2                      | -f/--sweep-first 3 is more than -l/--sweep-last 2
contradictory | 1 4   | --sweep-placement spread       | --sweep-placement: needs --sweep (or -f/-l/-s)
contradictory | 1 2 4 | --sweep 8                      | --sweep: a step of 8 ranks in a job of
contradictory | 1 2   | -l 8                           | --sweep: a step of
contradictory | 1 2 4 | -d a@b@c@d@e -u                | -d/--dir: 5 targets for
contradictory | 1 2 4 | --steady 5 -C                  | --steady runs its own phases (precreate, mix, cleanup) in its own directories: not with -C/--create
contradictory | 1     | --steady 5 --keep -u -R        | not with --keep, -u/--unique-dir, -R/--random
contradictory | 1     | --datasets 3                   | --datasets: needs --steady
contradictory | 1 2   | --steady 5 -n 15 --datasets 4  | --datasets
# ---- paths: too long, a name too long, a newline; odd bytes within a bad path still named
paths         | 1 2 4 | -d "$LONG"                     | -d/--dir: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' (5000 bytes) is longer than the limit of 4095 bytes
paths         | 1 2   | -d "x/$NAME300/y"              | -d/--dir: the name 'cccccccccccccccccccccccccccccccccccccccc...' (300 bytes) in it is longer than the limit of 255 bytes
paths         | 1     | -d "x@$NAME300" -u             | -d/--dir: the name 'cccc
paths         | 1 2   | -o "$LONG"                     | -o/--output: 'aaaa
paths         | 1     | -o "$NAME300.h5"               | -o/--output: the name 'cccc
paths         | 1 4   | -x "$LONG" -C                  | -x/--stonewall-file: 'aaaa
paths         | 1     | -x "$NAME300" -T               | -x/--stonewall-file: the name 'cccc
paths         | 1     | -x "${NAME300:0:252}" -C       | longer than the limit of 251 bytes (the file is written through NAME.tmp first)
paths         | 1 2   | -d "a${NL}b"                   | -d/--dir: a directory name with a newline in it is not supported
paths         | 1     | -d "$ODD/$NAME300"             | -d/--dir: the name 'cccc
paths         | 1     | -o "$ODD$NAME300"              | -o/--output: the name 'sp ace
paths         | 1     | -n x -d "$ODD"                 | -n/--items: 'x'
# ---- files: stonewall and results files that cannot be used (a directory, a FIFO, a dangling link, ...)
files         | 1 2 4 | -x adir -T                     | -x/--stonewall-file: stonewall file adir is a directory, not a file
files         | 1 2   | -x fifo -T                     | -x/--stonewall-file: stonewall file fifo is a FIFO, not a file
files         | 1 4   | -x dangling -T                 | -x/--stonewall-file: cannot read stonewall file dangling: ENOENT
files         | 1     | -x missing -T                  | -x/--stonewall-file: cannot read stonewall file missing: ENOENT
files         | 1 2   | -x plain -E                    | -x/--stonewall-file: plain is not an mdbench stonewall file
files         | 1     | -x emptyfile -r                | -x/--stonewall-file: emptyfile is not an mdbench stonewall file
files         | 1     | -x badsw -T                    | -x/--stonewall-file: badsw line 2: expected 'dirs <count>' or 'files <count>', found 'files 12x'
files         | 1 4   | -x sw -T -n 4                  | -x/--stonewall-file: sw: a count of 5 is more than -n 4
files         | 1 2   | -x adir -C                     | -x/--stonewall-file: stonewall file adir is a directory, not a file: not overwriting it
files         | 1     | -x fifo -C                     | -x/--stonewall-file: stonewall file fifo is a FIFO, not a file: not overwriting it
files         | 1     | -x dangling -C                 | -x/--stonewall-file: stonewall file dangling is a symbolic link, not a file: not overwriting it
files         | 1 2   | -x plain -C                    | -x/--stonewall-file: plain exists and is not an mdbench stonewall file: not overwriting it
files         | 1     | -x nodir/sw -C                 | -x/--stonewall-file: cannot write stonewall file nodir/sw: ENOENT
files         | 1 4   | -o fifo --force                | -o/--output: fifo is a FIFO, not a results file
files         | 1     | -o fifo --append               | -o/--output: fifo is a FIFO, not a results file
files         | 1 2   | -o adir --force                | -o/--output: adir is a directory, not a results file
files         | 1     | -o dangling --force            | -o/--output: dangling is a symbolic link, not a results file
files         | 1     | -o plain                       | plain exists: use --append to add this run to it, or --force to replace it
# ---- help and version win over every problem (exit 0, nothing touched)
wins          | 1 2   | -n abc --help                  | Usage: mpiexec -n RANKS mdbench
wins          | 1     | --bogus -h                     | Usage: mpiexec -n RANKS mdbench
wins          | 1 2   | -n -5 --version                | mdbench 0.
TABLE

# Subcommands run on rank 0 alone; the other ranks wait for its status. "RANKS | STATUS | ARGS | EXPECTED",
# EXPECTED on standard error or output; 2 bad usage, 1 a file that cannot be read.
run_tool_table() {
  local ranks want args expected np
  while IFS='|' read -r ranks want args expected; do
    ranks=$(trim "$ranks")
    [ -z "$ranks" ] || [ "${ranks:0:1}" = "#" ] && continue
    for np in $ranks; do
      [[ $ONLY == *" $np "* ]] || continue
      check_case subcommands "$np" "$(trim "$want")" "$(trim "$args")" "$(trim "$expected")"
    done
  done
}

run_tool_table <<'TABLE'
1 2 | 2 | validate                                  | mdbench validate: error: no file given
1   | 2 | validate --bogus plain                    | mdbench validate: error: unrecognised option '--bogus'
1 2 | 1 | validate plain                            | plain: INVALID: plain: plain is not an mdbench results file (not an HDF5 file)
1 2 | 1 | validate fifo                             | fifo: INVALID: fifo: not a regular file
1   | 1 | validate adir                             | adir: INVALID: adir: not a regular file
1   | 1 | validate missing                          | missing: INVALID: missing: no such file
1   | 1 | validate emptyfile                        | emptyfile: INVALID
1 2 | 2 | export                                    | mdbench export: error: no results file given
1   | 2 | export plain                              | mdbench export: error: --format json
1 2 | 2 | export plain --format xml                 | mdbench export: error: --format: 'xml' is not json or csv
1   | 2 | export plain --format                     | the required argument for option '--format' is missing
1   | 2 | export plain --format ''                  | mdbench export: error: --format json
1   | 2 | export plain sw --format json             | too many positional options
1   | 2 | export plain --format csv -o plain        | mdbench export: error: plain exists: use --force to replace it
1   | 2 | export plain --format csv -o plain --force | mdbench export: error: export file plain is also an input (plain)
1 2 | 1 | export fifo --format json                 | mdbench export: error: fifo: not a regular file
1   | 1 | export adir --format csv                  | mdbench export: error: adir: not a regular file
1   | 1 | export plain --format json                | plain is not an mdbench results file
1 2 | 2 | import                                    | mdbench import: error: no input file given
1   | 2 | import plain                              | mdbench import: error: -o FILE.h5 is required
1   | 2 | import plain -o ''                        | mdbench import: error: -o FILE.h5 is required
1   | 2 | import plain -o sw                        | mdbench import: error: sw exists: use --append to add to it
1   | 2 | import plain -o new.h5 --format xls       | --format: 'xls' is not auto, ior, iozone, mdtest, md-workbench or io500
1 2 | 1 | import fifo -o new.h5                     | mdbench import: error: fifo: not a regular file
1   | 1 | import adir -o new.h5                     | mdbench import: error: adir: a directory, and not an IO500 result directory
1   | 1 | import missing -o new.h5                  | mdbench import: error: missing: no such file
1   | 1 | import plain -o new.h5                    | plain: not recognised as IOR JSON
1   | 1 | import plain -o new.h5 --format ior       | plain
1 2 | 2 | report                                    | mdbench report: error: no results file given
1   | 2 | report a=                                 | mdbench report: error: 'a=' names no file
1   | 2 | report ''                                 | mdbench report: error: '' names no file
1   | 2 | report plain --error-bars wide            | --error-bars: 'wide' is not minmax or stddev
1   | 2 | report plain --png                        | --png needs --out-dir DIR
1   | 2 | report a=plain a=sw                       | two configurations are labelled 'a'
1 2 | 1 | report fifo                               | mdbench report: error: fifo: not a regular file
1   | 1 | report adir                               | mdbench report: error: adir: not a regular file
1   | 1 | report plain                              | plain is not an mdbench results file
1 2 | 2 | check                                     | mdbench check: error: no results file given
1   | 2 | check plain                               | no rule given: --require RULE or --rules FILE
1 2 | 2 | check plain 'file-create>=1'              | 'file-create>=1' is a rule, not a results file: give it as --require 'file-create>=1'
1   | 2 | check plain -r 'file-create>=1' 'file-stat.p99 < 2ms' | 'file-stat.p99 < 2ms' is a rule, not a results file
1   | 2 | check plain -r garbage                    | rule 'garbage': no comparison
1   | 2 | check plain -r ''                         | rule '': no comparison
1 2 | 2 | check plain --rules fifo                  | --rules: rules file fifo is a FIFO, not a file
1   | 2 | check plain --rules adir                  | --rules: rules file adir is a directory, not a file
1   | 2 | check plain --rules dangling              | --rules: cannot read rules file dangling: ENOENT (No such file or directory)
1   | 2 | check plain --rules rules --junit plain   | --junit: plain exists: use --force to replace it
1   | 2 | check plain --rules rules --junit plain --force | --junit: JUnit report plain is also an input (plain)
1   | 2 | check plain --rules rules --junit rules --force | --junit: JUnit report rules is also an input (rules)
1   | 2 | check plain --rules binary                | binary: not a text file of rules (a NUL byte on line 2)
1   | 2 | check plain --rules norules               | norules: holds no rule (only blank lines and comments)
1   | 2 | check plain --rules rules --force         | --force without --junit
1 2 | 1 | check fifo --rules rules                  | mdbench check: error: fifo: not a regular file
1   | 1 | check plain --rules rules                 | plain is not an mdbench results file
TABLE

# Odd bytes in a path that is otherwise fine: the run works there, under exactly that name, and cleans up.
if [[ $ONLY == *" 2 "* ]]; then
  odd="$W/$ODD"
  cd "$W" || exit 1
  run 2 -n 3 -d "$odd" -o "$BASE/odd.h5" </dev/null
  cd "$BASE" || exit 1
  expect_rc 0 "a target with odd bytes in its name"
  expect_absent "$odd" "the odd-named target made and removed again"
  expect_in "$OUT" "target:   $odd" "the odd-named target shown as it is"
  rm -f "$BASE/odd.h5"
  if [ "$(fingerprint "$W")" = "$FINGERPRINT" ]; then pass; else fail "the odd-named run left something behind"; fi
fi

echo "cases per category and rank count:"
for key in "${!COUNT[@]}"; do echo "  $key: ${COUNT[$key]}"; done | sort
echo "$TOTAL cases"
finish
