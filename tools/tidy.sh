#!/usr/bin/env bash
# clang-tidy with the project's checks (.clang-tidy) over the C++ sources of the layers that build without CUDA
# (core, gate, cli), using a configured build's compile_commands.json. Not part of CI: it needs a few minutes.
#   tools/tidy.sh [BUILD_DIR] [FILE...]      (default build/test, every source of core, gate and cli)
# Prints clang-tidy's findings and exits 1 when there is any.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 3
build=${1:-build/test}
shift $(($# > 0 ? 1 : 0))
[ -f "$build/compile_commands.json" ] || { echo "tidy: no $build/compile_commands.json: configure that build first" >&2; exit 3; }
command -v clang-tidy >/dev/null 2>&1 || { echo "tidy: no clang-tidy here (apt install clang-tidy)" >&2; exit 3; }
if [ $# -gt 0 ]; then files=("$@"); else mapfile -t files < <(git ls-files 'core/src/*.cpp' 'gate/src/*.cpp' 'cli/*.cpp'); fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
printf '%s\n' "${files[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet >"$log" 2>/dev/null
grep -E "^[^ ].*: (warning|error):" "$log" | sort -u
! grep -qE ": (warning|error):" "$log"
