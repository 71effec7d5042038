#!/usr/bin/env bash
# Style checks run by the test suite: clang-format on every C++ source, shellcheck and bash -n on scripts.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
mapfile -t sources < <(find src include tests bench -name '*.cpp' -o -name '*.hpp' | sort)
clang-format --dry-run --Werror "${sources[@]}" || status=1
mapfile -t scripts < <(find scripts tests/e2e tests/testbed tests/serverstats bench .ci jobscripts -type f \( -name '*.sh' -o -name run -o -name '*.sbatch' -o -name '*.pbs' \) | sort)
for s in "${scripts[@]}"; do bash -n "$s" || status=1; done
shellcheck -x -P tests/e2e:tests/testbed "${scripts[@]}" || status=1
echo "lint: ${#sources[@]} C++ files, ${#scripts[@]} scripts: $([ $status = 0 ] && echo clean || echo PROBLEMS)"
exit $status
