#!/usr/bin/env bash
# examples/adopt built as an outside project would build it, one way per call:
#   adopt_example_test.sh MODE REPO MAIN_BUILD CUDA_COMPILER
# MODE package: `cmake --install` of this build into a prefix, then find_package(bankgate);
# MODE subdirectory: add_subdirectory of the checkout; MODE fetch: FetchContent from the checkout's git
# repository at the commit the docs pin, which must be the release of the version they describe. Checks that the project's ctest holds its one GPU test and none of bankgate's,
# and that without a GPU that test is Skipped with the reason. Prints "N passed, M failed".
set -uo pipefail
mode=${1:?usage: adopt_example_test.sh package|subdirectory|fetch REPO MAIN_BUILD CUDA_COMPILER}
repo=${2:?} main_build=${3:?} nvcc=${4:?}
work=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-adopt-$mode.XXXXXX")
trap 'rm -rf "$work"' EXIT
passed=0 failed=0
pass() { echo "ok   - $1"; passed=$((passed + 1)); }
fail() { echo "FAIL - $1"; [ -n "${2:-}" ] && printf '%s\n' "$2" | sed 's/^/       /'; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit; }

# No build type (no optimisation): what is checked is that the project configures, builds and lists its tests, not
# how fast its code runs, and an unoptimised build of bankgate's sources takes about half the compiler's time of a
# Release one (bankgate itself is built twice here, by subdirectory and by FetchContent, on two-core CI machines).
args=(-G Ninja -DCMAKE_BUILD_TYPE= -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90 -DBANKGATE_FROM="$mode")
case $mode in
  package)
    if out=$(cmake --install "$main_build" --prefix "$work/prefix" 2>&1); then pass "cmake --install puts bankgate into a prefix"
    else fail "cmake --install puts bankgate into a prefix" "$out"; finish; fi
    [ -x "$work/prefix/bin/bankgate" ] && pass "the prefix holds the bankgate command" || fail "the prefix holds the bankgate command"
    [ -x "$work/prefix/bin/bankgate-resource-spec" ] && pass "the prefix holds the resource spec writer beside the command" ||
      fail "the prefix holds the resource spec writer beside the command" "$(ls "$work/prefix/bin")"
    [ -f "$work/prefix/share/doc/bankgate/LICENSE" ] && [ -f "$work/prefix/share/doc/bankgate/NOTICE" ] &&
      cmp -s "$work/prefix/share/doc/bankgate/LICENSE" "$repo/LICENSE" && pass "the prefix holds the licence and its notice" ||
      fail "the prefix holds the licence and its notice" "$(ls -R "$work/prefix/share" 2>&1)"
    [ -f "$work/prefix/lib/cmake/bankgate/bankgateConfig.cmake" ] && pass "the prefix holds bankgateConfig.cmake" ||
      fail "the prefix holds bankgateConfig.cmake" "$(find "$work/prefix" -name '*.cmake')"
    args+=(-DCMAKE_PREFIX_PATH="$work/prefix${CMAKE_PREFIX_PATH:+;${CMAKE_PREFIX_PATH//:/;}}") ;;
  subdirectory) args+=(-DBANKGATE_SOURCE_DIR="$repo") ;;
  fetch)
    # The commit the docs pin (README, docs/adopting.md), as a newcomer copies it: the release of the version the
    # docs describe. A stale pin, or docs that disagree on it, fails here.
    git -C "$repo" rev-parse HEAD >/dev/null 2>&1 || { echo "skipped: $repo is no git checkout, nothing to fetch"; finish; }
    pins=$(grep -hoE 'GIT_TAG [0-9a-f]{40}\)  # a commit of main \([0-9]+\.[0-9]+\.[0-9]+\)' "$repo/README.md" "$repo/docs/adopting.md" | sort -u)
    [ "$(printf '%s\n' "$pins" | grep -c .)" -eq 1 ] && pass "the docs pin one commit" ||
      { fail "the docs pin one commit" "$pins"; finish; }
    tag=$(printf '%s' "$pins" | grep -oE '[0-9a-f]{40}') pinned=$(printf '%s' "$pins" | grep -oE '[0-9]+\.[0-9]+\.[0-9]+')
    version=$(sed -nE 's/^project\(bankgate VERSION ([0-9.]+) .*/\1/p' "$repo/CMakeLists.txt")
    git -C "$repo" merge-base --is-ancestor "$tag" HEAD 2>/dev/null && pass "the pinned commit is on this branch" ||
      { fail "the pinned commit is on this branch" "$tag is not an ancestor of HEAD (a shallow clone lacks it)"; finish; }
    at_pin=$(git -C "$repo" show "$tag:CMakeLists.txt" | sed -nE 's/^project\(bankgate VERSION ([0-9.]+) .*/\1/p')
    [ "$pinned" = "$version" ] && [ "$at_pin" = "$version" ] && pass "the pin is the release of the version the docs describe ($version)" ||
      fail "the pin is the release of the version the docs describe ($version)" "the docs say $pinned, the pinned commit is $at_pin"
    args+=(-DBANKGATE_SOURCE_DIR="$repo" -DBANKGATE_GIT_TAG="$tag") ;;
  *) echo "unknown mode '$mode'" >&2; exit 64 ;;
esac
[ "$mode" != package ] && args+=(${CMAKE_PREFIX_PATH:+-DCMAKE_PREFIX_PATH="${CMAKE_PREFIX_PATH//:/;}"})

if out=$(cmake -S "$repo/examples/adopt" -B "$work/build" "${args[@]}" 2>&1); then pass "the example configures ($mode)"
else fail "the example configures ($mode)" "$out"; finish; fi
if out=$(cmake --build "$work/build" 2>&1); then pass "the example builds ($mode)"
else fail "the example builds ($mode)" "$(printf '%s\n' "$out" | grep -E 'error|Error' | head -20)"; finish; fi
case $out in *"old header"*) fail "the example includes the fixture's current header, not its old one" "$out" ;;
  *) pass "the example includes the fixture's current header, not its old one" ;; esac

listed=$(ctest --test-dir "$work/build" -N 2>&1)
# Its one test, and its suite's measuring run (one process per suite), and none of bankgate's own tests.
case $listed in *"Total Tests: 2"*"bankgate.measure.transpose_gate"*|*"bankgate.measure.transpose_gate"*"Total Tests: 2"*)
  pass "the project's ctest holds its one test, its suite's measuring run and none of bankgate's" ;;
  *) fail "the project's ctest holds its one test, its suite's measuring run and none of bankgate's" "$listed" ;; esac
gpu=$(ctest --test-dir "$work/build" -N -L '^gpu$' 2>&1)
case $gpu in *"Transpose.PaddedTile"*) pass "its test is labelled gpu" ;; *) fail "its test is labelled gpu" "$gpu" ;; esac
if [ "$mode" != package ]; then
  # bankgate's sources build under the project's flags: its own warning flags stay out of the project's build.
  flagged=$(ninja -C "$work/build" -t commands 2>/dev/null | grep -c -- '-Wshadow')
  [ "$flagged" -eq 0 ] && pass "no warning flag of bankgate's reaches the project's build" ||
    fail "no warning flag of bankgate's reaches the project's build" "$flagged commands with -Wshadow"
  command=$(find "$work/build" -path '*/cli/bankgate' -type f -print -quit)
  [ -n "$command" ] && "$command" --help >/dev/null && pass "the bankgate command is built with the project" ||
    fail "the bankgate command is built with the project"
  # How an adopting project's CI spreads its suites over the runner's GPUs (examples/adopt/ci/).
  [ -n "$command" ] && [ -x "$(dirname "$command")/bankgate-resource-spec" ] &&
    pass "the resource spec writer is beside the command" || fail "the resource spec writer is beside the command"
fi

run=$(ctest --test-dir "$work/build" -V 2>&1)  # -V: a skip's reason is in the test's own output
status=$?
if nvidia-smi -L >/dev/null 2>&1; then
  echo "a GPU is present: the test ran (status $status); the skip checks do not apply here"
else
  [ "$status" -eq 0 ] && pass "without a GPU the project's ctest passes" || fail "without a GPU the project's ctest passes" "$run"
  case $run in *"Skipped"*) pass "its GPU test reports Skipped" ;; *) fail "its GPU test reports Skipped" "$run" ;; esac
  case $run in *"no GPU on this machine"*) pass "the skip says why" ;; *) fail "the skip says why" "$run" ;; esac
fi
# Baselines default to the project's own source folder, never bankgate's or a build folder.
config=$(cat "$work/build/transpose_gate_bankgate_suite_config.cpp" 2>/dev/null)
case $config in *"$repo/examples/adopt/baselines"*) pass "baselines default to the project's source folder" ;;
  *) fail "baselines default to the project's source folder" "$config" ;; esac
if [ "$mode" = package ]; then
  # A misspelt kernel name fails the build, without a GPU, naming the line (it used to build, and be skipped).
  cp -r "$repo/examples/adopt" "$work/misspelt"
  sed -i 's/\.kernel_name = "transposePadded"/.kernel_name = "transposePaded"/' "$work/misspelt/transpose_gate_test.cpp"
  cmake -S "$work/misspelt" -B "$work/misspelt-build" "${args[@]}" >/dev/null 2>&1
  if out=$(cmake --build "$work/misspelt-build" 2>&1); then fail "a misspelt kernel name fails the build" "it built"
  else
    case $out in *'transpose_gate_test.cpp:'*'kernel name "transposePaded" matches no kernel of'*'transposePadded'*)
      pass "a misspelt kernel name fails the build, naming its line and the suite's kernels" ;;
      *) fail "a misspelt kernel name fails the build, naming its line and the suite's kernels" "$(printf '%s\n' "$out" | tail -20)" ;; esac
  fi
  # A suite two folders down, in a project that enables testing nowhere itself: its test must still reach the
  # top's ctest. Its LABELS reach every discovered test and the measuring run, its TIMEOUT the measuring run (one
  # project for both: each build of the example's sources costs the compiler a minute on a busy two-core machine).
  nested="$work/nested"
  mkdir -p "$nested/a/b"
  cp "$repo/examples/adopt"/*.cu* "$repo/examples/adopt"/*.cpp "$nested/a/b/"
  printf 'cmake_minimum_required(VERSION 3.25)\nproject(nested LANGUAGES CXX CUDA)\nfind_package(bankgate CONFIG REQUIRED)\nadd_subdirectory(a)\n' >"$nested/CMakeLists.txt"
  printf 'add_subdirectory(b)\n' >"$nested/a/CMakeLists.txt"
  printf 'bankgate_add_gpu_suite(deep SOURCES transpose.cu transpose_gate_test.cpp LABELS nightly transpose TIMEOUT 123)\ntarget_compile_features(deep PRIVATE cxx_std_20)\n' >"$nested/a/b/CMakeLists.txt"
  if cmake -S "$nested" -B "$nested/build" "${args[@]}" >/dev/null 2>&1 && cmake --build "$nested/build" >/dev/null 2>&1; then
    deep=$(ctest --test-dir "$nested/build" -N 2>&1)
    case $deep in *"Total Tests: 2"*) pass "a suite two folders down reaches the top's ctest" ;;
      *) fail "a suite two folders down reaches the top's ctest" "$deep" ;; esac
    nightly=$(ctest --test-dir "$nested/build" -N -L '^nightly$' 2>&1)
    case $nightly in *"Total Tests: 2"*) pass "LABELS adds labels to the suite's tests" ;;
      *) fail "LABELS adds labels to the suite's tests" "$nightly" ;; esac
    gpu=$(ctest --test-dir "$nested/build" -N -L '^gpu$' 2>&1)
    case $gpu in *"Total Tests: 2"*) pass "the tests keep the gpu label" ;; *) fail "the tests keep the gpu label" "$gpu" ;; esac
    props=$(ctest --test-dir "$nested/build" --show-only=json-v1 2>/dev/null)
    case $props in *'"value" : 123'*) pass "TIMEOUT reaches the suite's measuring run" ;; *) fail "TIMEOUT reaches the suite's measuring run" "$(printf '%s' "$props" | grep -i -A2 timeout)" ;; esac
  else
    fail "a project with its suite two folders down, with LABELS and TIMEOUT, configures and builds"
  fi
fi
# What adopters tripped on, in projects of their own shape (tests/unit/fixtures/outside_projects/; package mode only).
if [ "$mode" = package ]; then
  outside="$repo/tests/unit/fixtures/outside_projects"
  # A suite that links the CUDA driver library: it builds (its tests are listed after the build) where the driver
  # is missing, and its test is Skipped there with the reason; on a machine with the driver it runs.
  if out=$( (cmake -S "$outside/driver_suite" -B "$work/driver" "${args[@]}" && cmake --build "$work/driver") 2>&1); then
    pass "a suite linking CUDA::cuda_driver builds"
  else
    fail "a suite linking CUDA::cuda_driver builds" "$(printf '%s\n' "$out" | tail -20)"
  fi
  run=$(ctest --test-dir "$work/driver" -V 2>&1)
  status=$?
  if [ -e /proc/driver/nvidia/version ] || ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
    # The program starts and its test runs with the real driver; the test gates no kernel, so bankgate's verdict
    # calls it not measured rather than passed (a test that measured nothing never counts as passed).
    case $run in *"[  PASSED  ] 1 test."*) pass "with the driver, the suite linking it runs its test" ;;
      *) fail "with the driver, the suite linking it runs its test" "$run" ;; esac
    case $run in *"Driver.Version: its result record says it passed, but bankgate has no measurement"*)
      [ "$status" -ne 0 ] && pass "with the driver, its test that gated nothing is not measured, and ctest fails" ||
        fail "with the driver, its test that gated nothing is not measured, and ctest fails" "$run" ;;
      *) fail "with the driver, its test that gated nothing is not measured, and ctest fails" "$run" ;; esac
  else
    [ "$status" -eq 0 ] && pass "without the driver, the ctest of a suite linking it passes" ||
      fail "without the driver, the ctest of a suite linking it passes" "$run"
    # ctest's line for the test: "2/2 Test #2: Driver.Version ....***Skipped   0.01 sec"
    verdict=$(printf '%s\n' "$run" | grep -E 'Test +#[0-9]+: Driver\.Version ')
    case $verdict in *Skipped*) pass "without the driver, its GPU test reports Skipped (neither passed nor failed)" ;;
      *) fail "without the driver, its GPU test reports Skipped (neither passed nor failed)" "$run" ;; esac
    case $run in *"no GPU on this machine (no NVIDIA driver is installed"*) pass "without the driver, the skip says the driver is missing" ;;
      *) fail "without the driver, the skip says the driver is missing" "$run" ;; esac
  fi
  # CUDA sources that include bankgate's headers (C++20) build, also with CMake 3.25.
  if out=$( (cmake -S "$outside/cuda_headers" -B "$work/headers" "${args[@]}" && cmake --build "$work/headers") 2>&1); then
    pass "CUDA sources that include bankgate's headers build (CMake $(cmake --version | head -1 | awk '{print $3}'))"
  else
    fail "CUDA sources that include bankgate's headers build" "$(printf '%s\n' "$out" | grep -E 'error|Error' | head -20)"
  fi
  # Its fixture allocates in SetUp after the base's, as docs/adopting.md shows: without a GPU it skips, not fails.
  if ! nvidia-smi -L >/dev/null 2>&1; then
    run=$(ctest --test-dir "$work/headers" -V 2>&1)
    verdict=$(printf '%s\n' "$run" | grep -E 'Test +#[0-9]+: Scale\.Doubles ')
    case $verdict in *Skipped*) pass "a fixture that allocates in SetUp after the base's is Skipped without a GPU" ;;
      *) fail "a fixture that allocates in SetUp after the base's is Skipped without a GPU" "$run" ;; esac
  fi
  # A .cu file in SOURCES of a project that has not enabled CUDA is refused, not left out without a word.
  cxx_only="$work/cxx-only"
  mkdir -p "$cxx_only"
  cp "$repo/examples/adopt"/*.cu* "$repo/examples/adopt"/*.cpp "$cxx_only/"
  printf 'cmake_minimum_required(VERSION 3.25)\nproject(cxx_only LANGUAGES CXX)\nfind_package(bankgate CONFIG REQUIRED)\n%s\n' \
    'bankgate_add_gpu_suite(transpose_gate SOURCES transpose.cu transpose_gate_test.cpp)' >"$cxx_only/CMakeLists.txt"
  out=$(cmake -S "$cxx_only" -B "$cxx_only/build" "${args[@]}" 2>&1)
  status=$?
  [ "$status" -ne 0 ] && pass "a .cu source without CUDA enabled stops the configure" || fail "a .cu source without CUDA enabled stops the configure" "$out"
  case $(printf '%s' "$out" | tr -s ' \n' ' ') in *"SOURCES holds CUDA files (transpose.cu), but this project has not enabled CUDA"*"enable_language(CUDA)"*)
    pass "a .cu source without CUDA enabled: says how to enable CUDA" ;;
    *) fail "a .cu source without CUDA enabled: says how to enable CUDA" "$out" ;; esac
fi
finish
