#!/usr/bin/env bash
# The module graph of src/README.md, checked on the sources and on the built libraries:
#   - src/ holds module folders and main.cpp only;
#   - a module's sources include public headers of the modules it may use only (and private headers of its own);
#   - every mdbench symbol a module's library needs is defined by the modules it may use;
#   - the offline libraries (util, config, model, console, results, report) need no MPI symbol and nothing of Comm,
#     the backends, the runner, the steady-state engine or the stop signals;
#   - one result family: a rank's record fields are declared in model only;
#   - no source file over 800 lines, no function over 80 (shared/STYLE.md), in sources and headers alike.
# Usage: scripts/layers.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:?usage: scripts/layers.sh BUILD_DIR}
status=0
problem() {
  echo "layers: $*" >&2
  status=1
}

declare -A may_use=(
  [util]="util"
  [config]="util config"
  [model]="util config model"
  [console]="util config model console"
  [backend]="util config model backend"
  [serverstats]="util config model serverstats"
  [results]="util config model results"
  [report]="util config model console results report"
  [run]="util config model serverstats backend run"
  [cli]="util config model console serverstats backend results run report cli"
)
offline="util config model console results report"

for entry in src/*; do
  name=$(basename "$entry")
  case $name in
    main.cpp | CMakeLists.txt | README.md) ;;
    *) [[ -d $entry && -n ${may_use[$name]:-} ]] || problem "src/$name: src/ holds module folders and main.cpp only" ;;
  esac
done

for module in "${!may_use[@]}"; do
  allowed=" ${may_use[$module]} "
  while IFS=: read -r file include; do
    used=${include#mdbench/}
    used=${used%%/*}
    [[ $allowed == *" $used "* ]] || problem "$file includes $include: $module may not use $used"
  done < <(grep -HoE '#include "mdbench/[a-z_]+/[a-z_0-9]+\.hpp"' -r "src/$module" "include/mdbench/$module" |
    sed -E 's/#include "([^"]+)"/\1/')
done

# Nothing in cli/ or run/ calls a file-system function on a target: targets, their description and the
# cleanup go through the backend's Storage and Backend (include/mdbench/backend/storage.hpp). The POSIX
# file-system headers appear there only in these files, for files that are not targets; std::filesystem's
# calls that look at the disk not at all (its lexical path functions are fine).
declare -A fs_allowed=(
  [src/cli/app.cpp]="the results file, looked at before HDF5 opens it"
  [src/cli/report_tools.cpp]="import's inputs and report's output directory"
  [src/run/signals.cpp]="/dev/null, for the console's protection"
)
while read -r file; do
  [[ -n ${fs_allowed[$file]:-} ]] ||
    problem "$file includes a file-system header: cli and run reach a target through the backend's Storage"
done < <(grep -rlE '#include <(fcntl|sys/stat|sys/statvfs|sys/vfs|dirent)\.h>' src/cli src/run | sort)
disk_calls='(filesystem|fs)::(symlink_status|read_symlink|is_symlink|is_directory|is_regular_file|exists|status|create_director(y|ies)|remove|remove_all|rename|canonical|weakly_canonical|(recursive_)?directory_iterator|space|file_size)\b'
while IFS= read -r hit; do
  problem "$hit: std::filesystem on the disk in cli or run: go through the backend's Storage"
done < <(grep -rnE "$disk_calls" src/cli src/run | cut -d: -f1,2)

# One result family (issue 33): a rank's record of a phase is model's RankPhaseRecord (--steady's phases'
# too, their op kinds counted in it), written and read back as that type. No other module declares a
# record's own fields again, as a struct's member (results' file rows embed the record).
record_fields='^  (std::uint64_t|double) (t_local_end|t_global_end|t_stonewall) = 0(\.0)?;'
while IFS= read -r hit; do
  problem "$hit: a rank record's field declared outside model's result.hpp (one result family)"
done < <(grep -rnE "$record_fields" src include | grep -vE '^include/mdbench/model/result\.hpp:' | cut -d: -f1,2)
# And a phase's result is model's PhaseResult, whichever workload's (--steady's phases too): only it derives
# from PhaseTimeline, and only results' StoredPhase (the file's attributes beside it) from PhaseResult.
while IFS= read -r hit; do
  problem "$hit: a second phase result type (one result family: PhaseResult, and StoredPhase as stored)"
done < <(grep -rnE '^(struct|class) [A-Za-z_]+ (final )?: (public )?(PhaseTimeline|PhaseResult)\b' src include |
  grep -vE '^include/mdbench/model/result\.hpp:[0-9]+:struct PhaseResult : PhaseTimeline|^include/mdbench/results/results_file\.hpp:[0-9]+:struct StoredPhase : PhaseResult' |
  cut -d: -f1,2)

lib() { echo "$build/src/$1/libmdbench_$1.a"; }
defined() {
  for m in "$@"; do nm -C --defined-only "$(lib "$m")" | awk '$2 ~ /^[TWVBDRtu]$/ {sub(/^[^ ]+ [^ ]+ /, ""); print}'; done |
    sort -u
}
for module in "${!may_use[@]}"; do
  [[ -f $(lib "$module") ]] || {
    problem "$(lib "$module"): not built"
    continue
  }
  # shellcheck disable=SC2086 # the list of modules splits on purpose
  missing=$(comm -23 <(nm -C -u "$(lib "$module")" | sed 's/^ *U //' | grep 'mdbench::' | sort -u) \
    <(defined ${may_use[$module]}))
  [[ -z $missing ]] || problem "libmdbench_$module needs what its allowed modules do not define: $(head -3 <<<"$missing")"
done
for module in $offline; do
  bad=$(nm -C -u "$(lib "$module")" | sed 's/^ *U //' |
    grep -E '^P?MPI_|mdbench::(Comm|MpiComm|Backend|PosixBackend|FakeBackend|Runner|runBenchmark|runSteady|signals_detail|stopSignal|protectConsole)\b' || true)
  [[ -z $bad ]] || problem "libmdbench_$module (offline) references the runtime: $(head -3 <<<"$bad")"
done

for f in $(find src include -name '*.cpp' -o -name '*.hpp' | sort); do
  lines=$(wc -l <"$f")
  ((lines <= 800)) || problem "$f: $lines lines (at most 800)"
done
# Functions, by universal-ctags' start and end lines (scripts/deps.sh installs it): those defined in headers
# (inline, templates, member functions in a class body) count as those in sources do.
command -v ctags-universal >/dev/null || problem "ctags-universal not found: scripts/deps.sh installs universal-ctags"
while IFS=$'\t' read -r name file start end; do
  ((end - start <= 80)) || problem "$file: $name() is $((end - start)) lines (at most 80)"
done < <(find src include \( -name '*.cpp' -o -name '*.hpp' \) | sort | xargs ctags-universal --language-force=C++ --c++-kinds=f --fields=+ne -f - 2>/dev/null |
  awk -F'\t' '{l = 0; e = 0; for (i = 4; i <= NF; i++) { if ($i ~ /^line:/) l = substr($i, 6); if ($i ~ /^end:/) e = substr($i, 5) }
              if (e > 0) print $1 "\t" $2 "\t" l "\t" e}')

echo "layers: ${#may_use[@]} modules: $([ $status = 0 ] && echo as src/README.md draws them || echo PROBLEMS)"
exit $status
