#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang) into build-sanitize (or $1; the build scripts/sanitize.sh
# makes, see scripts/sanitized-build.sh) and runs each one for a fixed number of inputs (about
# MDBENCH_FUZZ_SECONDS of this machine's time, default 15) on a copy of its corpus and saved regressions, in
# a temporary directory: nothing is written into the repository. Exit 1 on any crash, leak, timeout or
# out-of-memory, naming the reproducer (kept in the temporary directory).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-sanitize}
seconds=${MDBENCH_FUZZ_SECONDS:-15}
# A fixed seed (MDBENCH_FUZZ_SEED, default 1) and a fixed number of inputs, not a time: every run of one
# build tries the same inputs in the same order, however fast or loaded the machine, so what passed here
# passes in CI and a finding in CI is found again here. The count is the target's rate on this machine
# (inputs per second, measured alone: the results target writes a file per input and opens it with HDF5)
# times MDBENCH_FUZZ_SECONDS; a longer or differently seeded run explores further.
seed=${MDBENCH_FUZZ_SEED:-1}
declare -A rate=([options]=2000 [import]=800 [rules]=10000 [results]=80 [stonewall]=60000)
targets=(options import rules results stonewall)

scripts/sanitized-build.sh "$build" "${targets[@]/%/_fuzz}"

work=$(mktemp -d "${TMPDIR:-/tmp}/mdbench-fuzz.XXXXXX")

# Whether a crash, timeout or out-of-memory reproducer is a bug of libhdf5's own (see fuzz/README.md,
# "HDF5's own bugs"): replayed alone, the faulting (or, for a timeout, the running) frame, the first one outside the sanitizer
# and fuzzer runtimes and libc, is in libhdf5, and so is the code that allocated the memory involved (when
# the report names one). Such inputs are set aside, not counted as findings: a damaged object header or
# global heap makes HDF5 1.10 read out of bounds, loop, or allocate a length it read (a single malloc over
# the limit: the frame that called it is in libhdf5) before any of our code sees a value. libc's string
# functions count as runtime however they are named (memcpy through the interceptor, or glibc's own
# __memcpy_avx512_unaligned_erms in string/../sysdeps/ when a replay faults there directly). A fault in
# our code, or in memory our code allocated, is always a finding. A crash that does not happen again alone
# (a use-after-free in HDF5's metadata cache needs the cache state earlier inputs left) is judged by the
# report the fuzzing run itself printed (LOG), by the same rule: the faulting frame and the allocation.
hdf5_internal() {  # hdf5_internal BINARY REPRODUCER LOG
  local replay
  replay=$(MDBENCH_FUZZ_TMPDIR="$work" "$1" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 "$2" 2>&1 || true)
  grep -qE '^==[0-9]+==ERROR: AddressSanitizer|ALARM: working on the last Unit|ERROR: libFuzzer: out-of-memory \(malloc' \
    <<<"$replay" || replay=$(cat "$3")
  awk '
    function runtime(line) { return line ~ /(__interceptor_|__asan_|__asan::|__sanitizer|__ubsan|fuzzer::|libc\.so|sysdeps\/|in (malloc|calloc|realloc|operator new|memcpy|memmove|memset|__(mem|str)[a-z0-9_]*) )/ }
    /^==[0-9]+==ERROR: AddressSanitizer|ALARM: working on the last Unit|ERROR: libFuzzer: out-of-memory \(malloc/ { report = 1 }
    report && /^ *#[0-9]+ / && section == "" && fault == "" && !runtime($0) { fault = $0 }
    report && /allocated by thread/ { section = "alloc" }
    report && section == "alloc" && /^ *#[0-9]+ / && alloc == "" && !runtime($0) { alloc = $0 }
    END { exit !(report && fault ~ /libhdf5/ && (alloc == "" || alloc ~ /libhdf5/)) }' <<<"$replay"
}

# Whether a leak reproducer's leaks are all HDF5's own: every leaked block was allocated inside libhdf5 (the
# first frame outside the sanitizer runtime is libhdf5's), and none by a variable-length conversion outside
# HDF5's internal free lists (H5FL_*): the strings H5Aread and H5Dread convert are handed to the caller,
# whose code must free them (the string leak fixed before came from there and would still be a finding).
# A block our code allocated is always a finding. HDF5 1.10 leaks its own structures when H5T_copy fails
# half-way on a damaged datatype (H5Aread, H5Dget_type) or H5D_open fails after decoding a message.
# Replayed alone with the slow unwinder, since libhdf5 has no frame pointers. A leak that does not happen
# again alone (it needed the library state earlier inputs left: HDF5's free lists and caches) is set aside
# too: nothing of it can be told apart, and our code keeps no state between inputs.
hdf5_internal_leak() {  # hdf5_internal_leak BINARY REPRODUCER
  { MDBENCH_FUZZ_TMPDIR="$work" ASAN_OPTIONS=fast_unwind_on_malloc=0 "$1" "$2" 2>&1 || true; } | hdf5_leaks
}
# LeakSanitizer's report on standard input judged by that rule (exit 0: every block HDF5's own). Also for a
# leak LeakSanitizer found only when the fuzzing run ended: libFuzzer reports it as a deadly signal on the
# last input (a crash-* file, often the empty input, which leaks nothing alone), so the run's log is judged.
hdf5_leaks() {
  awk '
    function close_block() { if (block && !(pool || (inside && !vlen))) other = 1; block = 0 }
    function runtime(line) { return line ~ /(__interceptor_|__asan_|__asan::|__sanitizer| in (malloc|calloc|realloc|strdup|strndup|operator new) )/ }
    /^(Direct|Indirect) leak of/ { close_block(); block = 1; blocks++; pool = 0; vlen = 0; first = ""; inside = 0 }
    block && /^ *#[0-9]+ .* in H5FL_/ { pool = 1 }
    block && /^ *#[0-9]+ .* in H5T(__conv_vlen|_vlen|__vlen)/ { vlen = 1 }
    block && /^ *#[0-9]+ / && first == "" && !runtime($0) { first = $0; inside = first ~ /libhdf5/ }
    /^SUMMARY/ { close_block() }
    END { close_block(); exit other }'
}

# One target's inputs, its lines on standard output and error. Exit 1 on a finding.
fuzz_target() {  # fuzz_target TARGET
  local target=$1 status=0 corpus binary executions set_aside runs started log rc n findings f note
  corpus="$work/corpus-$target"
  mkdir -p "$corpus" "$work/hdf5-internal"
  cp fuzz/corpus/"$target"/* "$corpus"/
  if compgen -G "fuzz/regressions/$target/*" >/dev/null; then cp fuzz/regressions/"$target"/* "$corpus"/; fi
  binary="$build/fuzz/${target}_fuzz"
  executions=0
  set_aside=0
  runs=$((rate[$target] * seconds))
  started=$SECONDS
  # One run, or (after HDF5-internal findings that are set aside) several, until the inputs are tried. A
  # hang guard only: an input that runs over 10 s is a timeout finding, and a target given 20 times its
  # share of time stops there, saying so (the runs after that point are not the fixed ones).
  while [ "$executions" -lt "$runs" ]; do
    if [ $((SECONDS - started)) -ge $((20 * seconds + 60)) ]; then
      echo "fuzz: $target: stopped after $((SECONDS - started)) s with $executions of $runs inputs tried" >&2
      break
    fi
    log="$work/$target.$executions.log"
    rc=0
    # The results target writes each input to a file; keep those in the work directory too.
    MDBENCH_FUZZ_TMPDIR="$work" "$binary" -seed="$seed" -runs=$((runs - executions)) -timeout=10 \
      -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 -artifact_prefix="$work/$target-" \
      "$corpus" >"$log" 2>&1 || rc=$?
    n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    # A run that stopped on a finding before printing its statistics: count the inputs its log shows.
    [ -n "$n" ] || n=$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#')
    executions=$((executions + ${n:-1}))
    mapfile -t findings < <(find "$work" -maxdepth 1 -type f \
      \( -name "$target-crash-*" -o -name "$target-leak-*" -o -name "$target-timeout-*" -o -name "$target-oom-*" \) | sort)
    [ "$rc" -ne 0 ] || [ "${#findings[@]}" -ne 0 ] || continue
    if [ "$target" = results ] && [ "${#findings[@]}" -eq 1 ] &&
      { { [[ "${findings[0]}" =~ /results-(crash|timeout|oom)- ]] && hdf5_internal "$binary" "${findings[0]}" "$log"; } ||
        { [[ "${findings[0]}" =~ /results-leak- ]] && hdf5_internal_leak "$binary" "${findings[0]}"; } ||
        { [[ "${findings[0]}" =~ /results-crash- ]] && grep -q 'ERROR: LeakSanitizer' "$log" && hdf5_leaks <"$log"; }; }; then
      set_aside=$((set_aside + 1))
      mv "${findings[0]}" "$work/hdf5-internal/"
      continue
    fi
    status=1
    echo "fuzz: $target: FAILED (exit $rc); log: $log" >&2
    grep -E '^(==[0-9]+==ERROR|SUMMARY|ERROR: libFuzzer)' "$log" | head -n 5 >&2 || true
    for f in "${findings[@]}"; do
      echo "fuzz: $target: reproducer: $f (replay: $binary $f)" >&2
    done
    break
  done
  note=""
  [ "$set_aside" -eq 0 ] ||
    note=", $set_aside input(s) crashing or leaking inside libhdf5 (or leaking only after other inputs) set aside"
  echo "fuzz: $target: $executions inputs in $((SECONDS - started)) s$note"
  return "$status"
}

# Two targets at a time (the machine's two CPUs; each target is one process), each one's lines printed
# together once it is done, in the targets' order.
status=0
pids=()
for target in "${targets[@]}"; do
  fuzz_target "$target" >"$work/$target.out" 2>&1 &
  pids+=($!)
  if [ "${#pids[@]}" -ge 2 ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for target in "${targets[@]}"; do cat "$work/$target.out"; done

if [ "$status" -eq 0 ]; then
  [ -n "${MDBENCH_FUZZ_KEEP:-}" ] || rm -rf "$work"
  echo "fuzz: clean"
else
  echo "fuzz: findings kept in $work; save each reproducer under fuzz/regressions/<target>/ once fixed" >&2
fi
exit "$status"
