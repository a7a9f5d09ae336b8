#!/usr/bin/env bash
# The project's tests: builds everything and runs every test with ctest. GPU-free tests always run; the GPU
# suites run where a GPU is and are reported as Skipped, with the reason, where none is. Then every reader of
# outside input is fuzzed for BANKGATE_FUZZ_SECONDS each (default 8; 0: not at all).
set -euo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
bankgate_ensure_test_dependencies  # the build's dependencies and the tests' own (PyYAML, jsonschema)
# The HTML report is checked as a browser shows it: Debian's chromium renders it, poppler-utils reads the page.
# The sources' layout is checked with clang-format (format_check).
check_tools=()
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || check_tools+=(chromium)
command -v pdftotext >/dev/null 2>&1 || check_tools+=(poppler-utils)
command -v clang-format >/dev/null 2>&1 || check_tools+=(clang-format)
if [ ${#check_tools[@]} -gt 0 ]; then
  if bankgate_is_ci || [ "$(id -u)" = 0 ]; then bankgate_install_packages "${check_tools[@]}"
  else echo "bankgate: no ${check_tools[*]} here: the tests that need them will be Skipped"; fi
fi
build_dir=${BANKGATE_BUILD_DIR:-build/test}
mkdir -p "$(dirname "$build_dir")"
bankgate_build "$build_dir"
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error --parallel "$(nproc)"

# Then a short fuzzing run of every reader of outside input (ci/fuzz.sh: its own Clang build in build/fuzz;
# clang and libFuzzer are installed like the rest where missing). A finding fails the run and names the input
# that reproduces it. BANKGATE_FUZZ_SECONDS sets the seconds per reader; 0 leaves fuzzing out.
fuzz_seconds=${BANKGATE_FUZZ_SECONDS:-8}
case $fuzz_seconds in
  '' | *[!0-9]*) bankgate_die "BANKGATE_FUZZ_SECONDS must be a whole number of seconds, got '$fuzz_seconds'" ;;
esac
if [ "$fuzz_seconds" -gt 0 ]; then
  bash ci/fuzz.sh "$fuzz_seconds"
fi
