# shellcheck shell=bash
# For the signal tests, sourced after lib.sh: every rank runs under a wrapper that records the rank's exit
# status, because Hydra's mpiexec forwards SIGINT/SIGTERM/SIGQUIT to the ranks' process groups but its own
# exit status after that is racy (seen: 0 or 128 + the signal for the same ranks' statuses). The wrapper
# ignores those signals itself; mdbench installs its own handlers over the ignored disposition it inherits.
wrapper=$BASE/rank-wrapper.sh
cat >"$wrapper" <<'WRAPPER'
#!/usr/bin/env bash
trap '' TERM INT QUIT
"$MDBENCH" "$@"
rc=$?
echo "$rc" >"$STATUS_DIR/rank.$PMI_RANK"
exit "$rc"
WRAPPER
chmod +x "$wrapper"

# start_run NAME ARGS...: the benchmark in the background on 2 ranks; sets PID (mpiexec's) and T (target,
# holding the user's precious.txt). Not under timeout(1): the signal goes to mpiexec itself, as from Slurm or
# a terminal; the callers guard against hangs.
start_run() {
  T=$BASE/$1
  shift
  mkdir -p "$T"
  echo "user data" >"$T/precious.txt"
  STATUS_DIR=$BASE/status.$(basename "$T")
  export STATUS_DIR
  mkdir -p "$STATUS_DIR"
  "$MPIEXEC" -n 2 "$wrapper" -d "$T" "$@" >"$OUT" 2>"$ERR" &
  PID=$!  # for the sourcing script
  export PID
}

# ranks_exited STATUS WHAT: every rank exited with STATUS.
ranks_exited() {
  expect_eq "$(cat "$STATUS_DIR"/rank.* 2>/dev/null | sort -u | tr '\n' ' ')" "$1 " "$2: every rank's exit status"
}

# wait_for_files N [PATTERN]: the target T holds N entries named PATTERN (default the run's files), at most
# 20 s; fails (status 1) otherwise.
wait_for_files() {
  local _
  for _ in $(seq 200); do
    [ "$(find "$T" -name "${2:-file.mdbench.*}" 2>/dev/null | head -n "$1" | wc -l)" -ge "$1" ] && return 0
    sleep 0.1
  done
  return 1
}

ranks() { pgrep -f "^$MDBENCH -d $T "; }

# finish_run: waits for mpiexec (killing it after 60 s: a hang); RC its status, SECONDS_TAKEN how long
# after the signal.
finish_run() {
  local start=$SECONDS _
  for _ in $(seq 600); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$PID" 2>/dev/null && { fail "mpiexec still running after 60 s: a hang"; kill -KILL "$PID"; }
  wait "$PID"
  SECONDS_TAKEN=$((SECONDS - start))
  export SECONDS_TAKEN  # for the sourcing script
}
