#!/usr/bin/env bash
# The project's tests: builds everything and runs every test with ctest. GPU-free tests always run; the GPU
# suites run where a GPU is and are reported as Skipped, with the reason, where none is.
set -euo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
bankgate_ensure_dependencies
build_dir=${BANKGATE_BUILD_DIR:-build/test}
mkdir -p "$(dirname "$build_dir")"
bankgate_build "$build_dir"
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error --parallel "$(nproc)"
