#!/usr/bin/env bash
# The front door: what `bankgate` says to a command line with a mistake in it, the exit codes each --help
# promises, --quiet and colour. Each check runs the built command; no GPU (two tiny CMake projects, one that
# builds and one that does not, stand in for a project's build folder; neither has GPU tests).
#   - a misspelt subcommand or option: exit 64, the nearest right spelling named (CLI11 alone said "A
#     subcommand is required" and "The following argument was not expected");
#   - numbers out of range: named in words, never CLI11's 309-digit range;
#   - each subcommand's --help lists only the exit codes it can return, the top level's all of them;
#   - --quiet: no progress lines, no build or ctest output (kept in logs), the verdict and errors still shown;
#   - colour: only on a terminal, off with NO_COLOR or --color=never, forced by --color=always, and never in
#     the reports written to files.
# (The console table's width is gate_summary_test.sh's; -j x, --rounds 0 and an empty --build are also
# report_inputs_test.sh's.)
#
#   tests/unit/command_line_test.sh PATH/TO/bankgate FIXTURES_DIR CMAKE
#
# FIXTURES_DIR is tests/unit/fixtures. Prints "N passed, M failed"; exits non-zero if any failed.
set -uo pipefail

tool=${1:?usage: command_line_test.sh PATH/TO/bankgate FIXTURES_DIR CMAKE}
fixtures=${2:?usage: command_line_test.sh PATH/TO/bankgate FIXTURES_DIR CMAKE}
cmake=${3:?usage: command_line_test.sh PATH/TO/bankgate FIXTURES_DIR CMAKE}
[ -x "$tool" ] || { echo "not an executable: $tool" >&2; exit 2; }

root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-command-line.XXXXXX")
trap 'rm -rf "$root"' EXIT

. "$(dirname "$0")/test_lib.sh"
unset NO_COLOR  # the checks below set it where they mean to
esc=$'\e['

# tty_run ARGS...: as run, with the command's standard output and error on a terminal of their own (a pty).
tty_run() {
  out=$(timeout "${run_timeout:-120}" python3 -c '
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
chunks = []
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:  # the terminal closes when the command ends
        break
    if not data:
        break
    chunks.append(data)
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(b"".join(chunks))
sys.exit(os.waitstatus_to_exitcode(status))' "$@" 2>&1)
  rc=$?
}

# ---------------------------------------------------------------------------------------------------------
# 1. Misspelt subcommands and options: a usage error (64) that names the word and the nearest right spelling.
run "$tool" gaet
expect_rc "a misspelt subcommand: a usage error (exit 64)" 64
expect_in "a misspelt subcommand: the nearest is suggested" "bankgate: unknown subcommand 'gaet'; did you mean 'gate'?" "$out"
expect_not_in "a misspelt subcommand: not CLI11's 'A subcommand is required'" "A subcommand is required" "$out"
run "$tool" --quiet --color never revew
expect_in "options before a misspelt subcommand, one with its value, are passed over" "unknown subcommand 'revew'; did you mean 'review'?" "$out"
run "$tool" gate-sumary
expect_in "an alias is suggested too" "did you mean 'gate-summary'?" "$out"
run "$tool" frobnicate
expect_rc "a subcommand near none: a usage error (exit 64)" 64
expect_not_in "a subcommand near none: no guess" "did you mean" "$out"
expect_in "a subcommand near none: the subcommands are listed" "the subcommands are: gate, record, review" "$out"

run "$tool" gate --paralel 3
expect_rc "a misspelt option: a usage error (exit 64)" 64
expect_in "a misspelt option: its subcommand's nearest option is suggested" \
  "bankgate gate: unknown option '--paralel'; did you mean '--parallel'?" "$out"
run "$tool" gate --paralel=3
expect_in "a misspelt option with its value after '=': named without it" "unknown option '--paralel'; did you mean '--parallel'?" "$out"
run "$tool" compare --bsae "$root" --head "$root"
expect_rc "compare --bsae: a usage error (exit 64)" 64
expect_in "compare --bsae: the misspelling is named, with --base" "bankgate compare: unknown option '--bsae'; did you mean '--base'?" "$out"
expect_not_in "compare --bsae: not CLI11's '--base is required'" "is required" "$out"
run "$tool" --verison
expect_in "a misspelt top-level option: --version suggested" "bankgate: unknown option '--verison'; did you mean '--version'?" "$out"
run "$tool" --build x gate
expect_rc "a subcommand's option before the subcommand: a usage error (exit 64)" 64
expect_in "a subcommand's option before the subcommand: says where it belongs" \
  "unknown option '--build'; a subcommand's own options follow its name" "$out"
run "$tool" gate -x
expect_in "an unknown short option is named" "bankgate gate: unknown option '-x'" "$out"
expect_not_in "an unknown short option: no guess (every one-letter option is one edit away)" "did you mean" "$out"
run "$tool" gate record
expect_rc "two subcommands: a usage error (exit 64)" 64
expect_in "two subcommands: the second is named" "bankgate gate: unexpected argument 'record'" "$out"
run "$tool" gate --color blue
expect_rc "--color blue: a usage error (exit 64)" 64
expect_in "--color blue: says what it takes" "--color: must be auto, always or never, got 'blue'" "$out"

# ---------------------------------------------------------------------------------------------------------
# 2. Numbers out of range, in words: CLI11's own ranges printed the largest double, 309 digits.
for args in "gate -j -1" "gate --parallel 1e3" "compare --base $root --head $root --rounds -2" "run-suite --binary x --results y --shard x"; do
  # shellcheck disable=SC2086  # the words of $args, split on purpose
  run "$tool" $args
  expect_rc "$args: a usage error (exit 64)" 64
  expect_in "$args: says what it takes" "must be a whole number" "$out"
  expect_not_in "$args: no 309-digit range" "179769313486231570" "$out"
done
run "$tool" gate -j 99999999999
expect_in "-j beyond an int: says the largest allowed" "(the largest allowed is 2147483647)" "$out"
for args in "refresh --processes 0" "record --processes 11" "refresh --processes two"; do
  # shellcheck disable=SC2086
  run "$tool" $args
  expect_rc "$args: a usage error (exit 64)" 64
  expect_in "$args: names the option and what it takes" "--processes: must be a whole number from 1 to 10" "$out"
done

# ---------------------------------------------------------------------------------------------------------
# 3. Each --help ends with the exit codes its subcommand can return; the top level's with all of them.
footer() { "$tool" "$@" --help | grep '^Exit codes:'; }
top=$(footer)
for code in "0 done" "1 regression" "2 could not measure" "3 the build" "4 baselines of another schema" "5 compare" "64 usage error"; do
  expect_in "bankgate --help lists exit code ${code%% *}" "$code" "$top"
done
for sub in gate record review promote refresh summary metrics check-baselines recover run-suite verdict discover protocol kernel-name; do
  text=$(footer "$sub")
  expect_in "$sub --help lists exit codes" "Exit codes: 0 done;" "$text"
  expect_not_in "$sub --help: no code 4 (readme-table's alone)" "; 4 " "$text"
  expect_not_in "$sub --help: no code 5 (compare's alone)" "; 5 " "$text"
  expect_in "$sub --help: code 64" "64 usage error" "$text"
done
expect_in "compare --help: code 5" "; 5 no regression, but a test's rounds too noisy to decide" "$(footer compare)"
text=$(footer compare-commits)
expect_in "compare-commits --help: compare's codes, 5 among them" "; 5 no regression, but a test's rounds too noisy to decide" "$text"
expect_in "compare-commits --help: code 3 for what it runs" "; 3 git, a checkout, a configure or a build failed" "$text"
expect_not_in "compare-commits --help: no code 4 (readme-table's alone)" "; 4 " "$text"
expect_in "readme-table --help: code 4" "; 4 a baseline of another schema version" "$(footer readme-table)"
expect_in "readme-table --help: code 1 in its own words" "; 1 --check: the README's table differs" "$(footer readme-table)"
for sub in record promote refresh metrics; do
  expect_not_in "$sub --help: no code 1 (it judges nothing)" "; 1 " "$(footer "$sub")"
done
expect_not_in "summary --help: no code 3 (it builds and refuses nothing)" "; 3 " "$(footer summary)"

# ---------------------------------------------------------------------------------------------------------
# 4. --quiet: the verdict and errors without the progress, the build's output or ctest's.
project() {  # project DIR COMMAND...: a configured CMake project (no languages) whose build runs COMMAND
  mkdir -p "$1"
  printf 'cmake_minimum_required(VERSION 3.20)\nproject(fixture NONE)\nenable_testing()\nadd_custom_target(step ALL COMMAND %s)\n' \
    "${*:2}" >"$1/CMakeLists.txt"
  "$cmake" -S "$1" -B "$1/build" >"$1/configure.log" 2>&1 || fail "the fixture project $1 configures" "$(cat "$1/configure.log")"
}
project "$root/builds" '${CMAKE_COMMAND} -E echo planted-build-output'
project "$root/breaks" '${CMAKE_COMMAND} -E echo planted-build-error COMMAND ${CMAKE_COMMAND} -E false'
good="$root/builds/build"

run "$tool" gate --build "$good"
expect_rc "gate without GPU tests: could not measure (exit 2)" 2
# The build's own CMake, as its cache names it, not the first on PATH (another version, or pip's Python wrapper).
own_cmake=$(sed -n 's/^CMAKE_COMMAND:INTERNAL=//p' "$good/CMakeCache.txt")
own_ctest=$(sed -n 's/^CMAKE_CTEST_COMMAND:INTERNAL=//p' "$good/CMakeCache.txt")
expect_in "gate: says that it builds, with the build's own cmake" "bankgate: building: $own_cmake --build" "$out"
expect_in "gate: the build's output is shown" "planted-build-output" "$out"
expect_in "gate: says that it runs ctest, the build's own" "bankgate: running: $own_ctest --test-dir" "$out"
# A cache naming a ctest that is gone (CMake moved or removed since): the one on PATH.
moved="$root/moved-cmake"
cp -R "$root/builds" "$moved"
sed -i "s|^CMAKE_CTEST_COMMAND:INTERNAL=.*|CMAKE_CTEST_COMMAND:INTERNAL=$root/gone/ctest|" "$moved/build/CMakeCache.txt"
run "$tool" gate --no-build --build "$moved/build"
expect_in "gate: a ctest the cache names but that is gone gives way to PATH's" "bankgate: running: ctest --test-dir" "$out"
for spelling in "gate --quiet" "gate -q" "--quiet gate"; do
  # shellcheck disable=SC2086
  run "$tool" $spelling --build "$good"
  expect_rc "$spelling: the same verdict (exit 2)" 2
  expect_not_in "$spelling: no progress line" "bankgate: building" "$out"
  expect_not_in "$spelling: no ctest progress line" "bankgate: running" "$out"
  expect_not_in "$spelling: no build output" "planted-build-output" "$out"
  expect_not_in "$spelling: no ctest output" "No tests were found" "$out"
  expect_in "$spelling: the verdict" "bankgate gate: FAILED - could not measure" "$out"
  expect_in "$spelling: the reason" "no GPU test ran" "$out"
done
expect_in "--quiet: the build's output is kept in a log" "planted-build-output" "$(cat "$good/bankgate/build.log" 2>&1)"
expect_in "--quiet: ctest's output is kept in a log" "No tests were found" "$(cat "$good/bankgate/gate/ctest.log" 2>&1)"
expect_in "--quiet: the verdict names ctest's log" "ctest's output: $good/bankgate/gate/ctest.log" "$out"

run "$tool" gate --quiet --build "$root/breaks/build"
expect_rc "--quiet, a failing build: refused (exit 3)" 3
expect_in "--quiet, a failing build: its errors are shown" "planted-build-error" "$out"
expect_in "--quiet, a failing build: says so and where the log is" "the build failed ($own_cmake --build $root/breaks/build; errors above, kept in" "$out"

# --baselines reaches the suite processes, which judge each test: not only the reports.
run "$tool" gate --quiet --no-build --build "$good" --baselines "$root/elsewhere"
expect_in "gate --baselines: the suite processes are told to judge against that folder" \
  "\"baseline_dir\": \"$root/elsewhere\"" "$(cat "$good/bankgate/gtest-results/.run-manifest.json" 2>&1)"
expect_in "gate: the suite processes confirm a slower duration in 3 fresh processes by default" \
  "\"confirm_processes\": 3" "$(cat "$good/bankgate/gtest-results/.run-manifest.json" 2>&1)"
# The suite-level settings of the command's own environment go into the manifest: its suite processes and verdict
# steps follow the command, not what ctest's environment holds.
suite_level() {
  python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); print(m.get("launch_only"), m.get("fail_on_speedup"), m.get("lock_timeout_s"))' \
    "$good/bankgate/gtest-results/.run-manifest.json" 2>&1
}
run env BANKGATE_LAUNCH_ONLY=1 BANKGATE_FAIL_ON_SPEEDUP=yes BANKGATE_LOCK_TIMEOUT=30 \
  "$tool" gate --quiet --no-build --build "$good"
expect_in "gate: the manifest carries the command's BANKGATE_LAUNCH_ONLY, _FAIL_ON_SPEEDUP and _LOCK_TIMEOUT" \
  "True True 30" "$(suite_level)"
run env -u BANKGATE_LAUNCH_ONLY -u BANKGATE_FAIL_ON_SPEEDUP -u BANKGATE_LOCK_TIMEOUT \
  "$tool" gate --quiet --no-build --build "$good"
expect_in "gate: without them, the manifest says their defaults" "False False 240" "$(suite_level)"
run env BANKGATE_LOCK_TIMEOUT=soon "$tool" gate --quiet --no-build --build "$good"
expect_rc "gate: a BANKGATE_LOCK_TIMEOUT that is no number of seconds is refused (exit 3)" 3
expect_in "gate: the refusal names the variable" "BANKGATE_LOCK_TIMEOUT='soon'" "$out"

run "$tool" record --quiet --no-build --build "$good"
expect_rc "record --quiet without GPU tests: nothing measured (exit 2)" 2
expect_in "record --quiet: names the log that says why" "the test output in $good/bankgate/record/ctest.log says why" "$out"
run "$tool" record --processes 3 --no-build --build "$good"
expect_rc "record --processes 3 without GPU tests: nothing measured (exit 2)" 2
expect_not_in "record --processes 3: no second process after a first that measured nothing" "process 2" "$out"

run "$tool" compare --base "$good" --head "$good" --rounds 2
expect_in "compare: a progress line for the warm-up round's ctest" "base-round0.log" "$out"
# Without a GPU the warm-up round measures nothing: the rounds are not run for nothing.
expect_not_in "compare: no rounds after a warm-up that measured nothing" "round 1 of 2 done" "$out"
run "$tool" compare --quiet --base "$good" --head "$good" --rounds 2
expect_rc "compare --quiet without GPU tests: nothing measured (exit 2)" 2
expect_not_in "compare --quiet: no round lines" "round 1 of 2" "$out"
expect_not_in "compare --quiet: no ctest lines" "bankgate: running" "$out"
expect_in "compare --quiet: the error is shown" "the base build measured nothing" "$out"

# ---------------------------------------------------------------------------------------------------------
# 4b. Run inside a build folder, given one without tests, or checking baselines before there are any: what
# bankgate does and advises fits where it is.
run bash -c "cd '$good' && '$tool' gate --quiet"
expect_rc "gate inside a build folder without --build: that folder is gated (exit 2 here)" 2
expect_in "gate inside a build folder without --build: the verdict of that build" "no GPU test ran" "$out"
expect_not_in "gate inside a build folder without --build: no build/build looked for" "build/build" "$out"
run bash -c "cd '$good' && '$tool' record --quiet --no-build"
expect_in "record inside a build folder without --build: that folder's log is named" \
  "the test output in $good/bankgate/record/ctest.log says why" "$out"
run bash -c "cd '$good' && '$tool' gate --build elsewhere"
expect_rc "gate inside a build folder, --build naming no build: refused (exit 3)" 3
expect_in "gate inside a build folder, --build naming no build: says to give --build ." \
  "bankgate runs inside one ($good): give that folder with --build . or leave --build out" "$out"
mkdir -p "$root/no-tests"
printf 'cmake_minimum_required(VERSION 3.20)\nproject(fixture NONE)\n' >"$root/no-tests/CMakeLists.txt"
"$cmake" -S "$root/no-tests" -B "$root/no-tests/build" >/dev/null 2>&1
run bash -c "cd '$root/no-tests/build' && '$tool' gate --build ."
expect_rc "gate --build . of a build without tests: refused (exit 3)" 3
expect_in "gate --build . of a build without tests: says so, and how to configure it from its sources" \
  "is a build folder, but its project registers no tests: gate kernels with bankgate_add_gpu_suite() (docs/adopting.md) and configure it again (cmake -S $root/no-tests -B $root/no-tests/build)" "$out"
expect_not_in "gate --build . of a build without tests: never advises configuring the build folder from itself" "cmake -S . -B ." "$out"
run bash -c "cd '$root/no-tests' && '$tool' gate --build fresh"
expect_in "gate in a project's folder before configuring: how to configure it" "configure the project first (cmake -S . -B fresh)" "$out"

run bash -c "cd '$root' && '$tool' check-baselines"
expect_rc "check-baselines before any baselines: could not read (exit 2)" 2
expect_in "check-baselines before any baselines: says so" "baselines does not exist: no baselines have been recorded there yet" "$out"
expect_in "check-baselines before any baselines: how to record the first" "refresh --build BUILD --new-gpu\` (BUILD: your build folder)" "$out"
mkdir -p "$root/empty-baselines"
run "$tool" check-baselines --baselines "$root/empty-baselines"
expect_rc "check-baselines of an empty folder: exit 2" 2
expect_in "check-baselines of an empty folder: says why, and how to record the first" \
  "$root/empty-baselines holds no baselines yet: record the first ones on a machine with the GPU with" "$out"
expect_in "check-baselines of another folder: the refresh names it" "--new-gpu --baselines $root/empty-baselines" "$out"

# ---------------------------------------------------------------------------------------------------------
# 5. Colour: verdicts on a terminal only; NO_COLOR and --color=never turn it off, --color=always forces it.
summary_of_fixtures=("$tool" summary --gtest-results "$fixtures/gate_summary/gtest-results"
  --candidates "$fixtures/gate_summary/candidates" --baselines "$fixtures/gate_summary/baselines")
run "${summary_of_fixtures[@]}"
expect_not_in "a pipe gets no colour" "$esc" "$out"
tty_run "${summary_of_fixtures[@]}"
expect_rc "on a terminal: the same verdict (exit 1)" 1
expect_in "on a terminal: a test that could not measure in red" "${esc}1;31mNOT MEASURED${esc}0m" "$out"
expect_in "on a terminal: a pass in green" "${esc}32mpassed${esc}0m" "$out"
expect_in "on a terminal: a skip in yellow" "${esc}33mSKIPPED${esc}0m" "$out"
expect_in "on a terminal: a regression in red" "${esc}1;31mREGRESSED${esc}0m" "$out"
expect_in "on a terminal: the headline in red" "${esc}1;31mFAILED: 5 of 6 GPU tests failed, 1 of them regressed" "$out"
tty_run env NO_COLOR=1 "${summary_of_fixtures[@]}"
expect_not_in "NO_COLOR=1 on a terminal: no colour" "$esc" "$out"
tty_run env NO_COLOR= "${summary_of_fixtures[@]}"
expect_in "NO_COLOR set empty: colour as if unset" "$esc" "$out"
tty_run "${summary_of_fixtures[@]}" --color=never
expect_not_in "--color=never on a terminal: no colour" "$esc" "$out"
tty_run "$tool" --color never summary --gtest-results "$fixtures/gate_summary/gtest-results"
expect_not_in "--color never before the subcommand: no colour" "$esc" "$out"
run env NO_COLOR=1 "${summary_of_fixtures[@]}" --color=always
expect_in "--color=always through a pipe, over NO_COLOR: colour" "${esc}1;31mNOT MEASURED" "$out"

reports="$root/coloured-reports"
mkdir -p "$reports"
tty_run "${summary_of_fixtures[@]}" --color=always --markdown "$reports/summary.md" --json "$reports/summary.json" \
  --junit-out "$reports/junit.xml" --html "$reports/report.html"
expect_in "reports written beside a coloured console: the console has colour" "$esc" "$out"
for file in summary.md summary.json junit.xml report.html; do
  if [ ! -s "$reports/$file" ]; then fail "--color=always: $file is written"
  elif grep -q $'\e' "$reports/$file"; then fail "--color=always: no escape code in $file" "$(grep -n $'\e' "$reports/$file" | head -3)"
  else pass "--color=always: no escape code in $file"; fi
done

planted="$fixtures/report/planted-run"
run "$tool" review --candidates "$planted/candidates" --baselines "$planted/baselines" --changes-only --color=always
expect_in "review: a changed counter in red" "${esc}1;31mCHANGED${esc}0m" "$out"
expect_in "review: an unchanged one in green" "${esc}32mok${esc}0m" "$out"
run "$tool" compare --base "$planted/candidates" --head "$planted/candidates" --color=always --json "$root/compare.json"
expect_in "compare: a pass in green" "${esc}32mok${esc}0m" "$out"
grep -q $'\e' "$root/compare.json" && fail "compare --color=always: no escape code in its JSON" ||
  pass "compare --color=always: no escape code in its JSON"
# "--json -": the data alone on standard output, the coloured text on standard error.
data=$("$tool" compare --base "$planted/candidates" --head "$planted/candidates" --color=always --json - 2>/dev/null)
expect_not_in "--json - with --color=always: no escape code in the data" "$esc" "$data"

finish
