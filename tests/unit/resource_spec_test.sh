#!/usr/bin/env bash
# cli/bankgate-resource-spec.sh against a stand-in nvidia-smi: which GPUs it lists (CUDA_VISIBLE_DEVICES as CUDA
# reads it), its refusals (exit 2 without a GPU, 3 for an unwritable file), and that ctest, given the spec,
# runs tests asking for RESOURCE_GROUPS "gpus:1" at most one per GPU while using every GPU, handing each its
# GPU in the form gate/src/protocol/settings.cpp reads. No GPU needed.
#
#   tests/unit/resource_spec_test.sh REPO_ROOT CMAKE CTEST
#
# Prints "N passed, M failed" and exits non-zero if any check failed.
set -uo pipefail

repo=${1:?usage: resource_spec_test.sh REPO_ROOT CMAKE CTEST}
cmake=${2:?usage: resource_spec_test.sh REPO_ROOT CMAKE CTEST}
ctest=${3:?usage: resource_spec_test.sh REPO_ROOT CMAKE CTEST}
writer="$repo/cli/bankgate-resource-spec.sh"

root=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-resource-spec.XXXXXX")
trap 'rm -rf "$root"' EXIT
unset CUDA_VISIBLE_DEVICES

passed=0
failed=0
pass() { passed=$((passed + 1)); echo "ok   - $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $1" >&2; [ -n "${2:-}" ] && printf '       %s\n' "$2" >&2; return 0; }

# A stand-in for nvidia-smi that prints $FAKE_SMI_OUTPUT and exits with $FAKE_SMI_STATUS.
smi="$root/fake-nvidia-smi"
cat >"$smi" <<'SH'
#!/usr/bin/env bash
printf '%s\n' "$FAKE_SMI_OUTPUT"
exit "${FAKE_SMI_STATUS:-0}"
SH
chmod +x "$smi"
two_gpus=$'0, GPU-aaaa1111-0000-0000-0000-000000000000\n1, GPU-bbbb2222-0000-0000-0000-000000000000'

# run [VAR=VALUE...]: runs the writer to standard output with the stand-in; $rc, $out (JSON), $err.
run() {
  out=$(env BANKGATE_NVIDIA_SMI="$smi" FAKE_SMI_OUTPUT="$two_gpus" "$@" bash "$writer" 2>"$root/err")
  rc=$?
  err=$(cat "$root/err")
}
# The ids of the spec in $out, space-separated.
ids() { printf '%s' "$out" | grep -o '"id": "[0-9]*"' | grep -o '[0-9]*' | tr '\n' ' ' | sed 's/ $//'; }
expect() {  # expect NAME RC IDS
  if [ "$rc" -eq "$2" ] && [ "$(ids)" = "$3" ]; then pass "$1"
  else fail "$1" "exit $rc (want $2), ids '$(ids)' (want '$3'); stderr: $err"; fi
}

run;                                              expect "two GPUs: ids 0 and 1" 0 "0 1"
case $err in *"2 GPU(s)"*) pass "the GPU count is reported" ;; *) fail "the GPU count is reported" "$err" ;; esac
run CUDA_VISIBLE_DEVICES=1;                       expect "CUDA_VISIBLE_DEVICES=1: one GPU, CUDA id 0" 0 "0"
run CUDA_VISIBLE_DEVICES=1,0;                     expect "CUDA_VISIBLE_DEVICES=1,0: two GPUs" 0 "0 1"
run CUDA_VISIBLE_DEVICES=GPU-bbbb2222;            expect "a GPU UUID prefix is one GPU" 0 "0"
run "CUDA_VISIBLE_DEVICES=0, 1";                  expect "spaces in CUDA_VISIBLE_DEVICES are ignored" 0 "0 1"
run CUDA_VISIBLE_DEVICES=0,7,1;                   expect "CUDA stops at an unknown index (0,7,1: one GPU)" 0 "0"
run CUDA_VISIBLE_DEVICES=1,1;                     expect "a repeated GPU counts once" 0 "0"
run CUDA_VISIBLE_DEVICES=;                        expect "CUDA_VISIBLE_DEVICES empty: no GPU (exit 2)" 2 ""
case $err in *CUDA_VISIBLE_DEVICES*) pass "the empty CUDA_VISIBLE_DEVICES is named" ;;
  *) fail "the empty CUDA_VISIBLE_DEVICES is named" "$err" ;; esac
run CUDA_VISIBLE_DEVICES=-1;                      expect "CUDA_VISIBLE_DEVICES=-1: no GPU (exit 2)" 2 ""
run CUDA_VISIBLE_DEVICES=GPU-ffff;                expect "an unknown GPU UUID: no GPU (exit 2)" 2 ""
run FAKE_SMI_OUTPUT="No devices were found" FAKE_SMI_STATUS=6
expect "nvidia-smi finds no device: exit 2" 2 ""
run FAKE_SMI_OUTPUT="NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver." FAKE_SMI_STATUS=9
expect "nvidia-smi fails: exit 2" 2 ""
case $err in *"couldn't communicate"*) pass "nvidia-smi's own complaint is passed on" ;;
  *) fail "nvidia-smi's own complaint is passed on" "$err" ;; esac
out=$(env BANKGATE_NVIDIA_SMI="$root/no-such-nvidia-smi" bash "$writer" 2>"$root/err"); rc=$?; err=$(cat "$root/err")
expect "no nvidia-smi: exit 2" 2 ""
case $err in *"not installed"*) pass "a missing nvidia-smi is named" ;; *) fail "a missing nvidia-smi is named" "$err" ;; esac

# Into a file, and into one that cannot be written.
env BANKGATE_NVIDIA_SMI="$smi" FAKE_SMI_OUTPUT="$two_gpus" bash "$writer" "$root/spec.json" 2>/dev/null; rc=$?
out=$(cat "$root/spec.json" 2>/dev/null); err=""
expect "written to a file" 0 "0 1"
env BANKGATE_NVIDIA_SMI="$smi" FAKE_SMI_OUTPUT="$two_gpus" bash "$writer" "$root/missing/spec.json" 2>/dev/null; rc=$?
[ "$rc" -eq 3 ] && pass "an unwritable file: exit 3" || fail "an unwritable file: exit 3" "exit $rc"

# ---------------------------------------------------------------------------------------------------------
# ctest with the spec: six tests of 0.5 s asking for "gpus:1" with -j 6 on two GPUs. Each holds a directory
# named after its GPU while it runs; a second test on the same GPU could not create it and fails.
project="$root/project"
mkdir -p "$project" "$root/held"
cat >"$project/probe.sh" <<'SH'
#!/usr/bin/env bash
echo "COUNT=${CTEST_RESOURCE_GROUP_COUNT-unset} GPUS=${CTEST_RESOURCE_GROUP_0_GPUS-unset}" >>"$1/allotments"
[ -n "${CTEST_RESOURCE_GROUP_0_GPUS:-}" ] || exit 0
gpu=${CTEST_RESOURCE_GROUP_0_GPUS#id:}; gpu=${gpu%%,*}
mkdir "$1/held/$gpu" || { echo "two tests on GPU $gpu at once" >&2; exit 1; }
sleep 0.5
rmdir "$1/held/$gpu"
SH
{
  echo 'cmake_minimum_required(VERSION 3.16)'
  echo 'project(resource_spec_check NONE)'
  echo 'enable_testing()'
  echo 'foreach(i RANGE 1 6)'
  echo "  add_test(NAME gpu_test_\${i} COMMAND bash \${CMAKE_CURRENT_SOURCE_DIR}/probe.sh \"$root\")"
  echo '  set_tests_properties(gpu_test_${i} PROPERTIES RESOURCE_GROUPS "gpus:1")'
  echo 'endforeach()'
} >"$project/CMakeLists.txt"
if ! "$cmake" -S "$project" -B "$project/build" >"$root/configure.log" 2>&1; then
  fail "configuring the scheduling check" "$(cat "$root/configure.log")"
else
  if "$ctest" --test-dir "$project/build" --resource-spec-file "$root/spec.json" -j 6 >"$root/ctest.log" 2>&1; then
    pass "ctest with the spec never runs two tests on one GPU"
  else
    fail "ctest with the spec never runs two tests on one GPU" "$(cat "$root/ctest.log")"
  fi
  used=$(grep -o 'GPUS=id:[0-9]*' "$root/allotments" | sort -u | tr '\n' ' ')
  [ "$used" = "GPUS=id:0 GPUS=id:1 " ] && pass "ctest uses both GPUs" || fail "ctest uses both GPUs" "$(cat "$root/allotments")"
  if grep -v -q '^COUNT=1 GPUS=id:[01],slots:1$' "$root/allotments"; then
    fail "each test gets COUNT=1 and id:<gpu>,slots:1 (what settings.cpp reads)" "$(cat "$root/allotments")"
  else
    pass "each test gets COUNT=1 and id:<gpu>,slots:1 (what settings.cpp reads)"
  fi
  # Without a spec ctest ignores the groups and sets nothing: the harness then uses device 0 and its lock.
  rm -f "$root/allotments"
  "$ctest" --test-dir "$project/build" -j 6 >"$root/ctest-nospec.log" 2>&1
  if [ "$(sort -u "$root/allotments")" = "COUNT=unset GPUS=unset" ]; then
    pass "without a spec ctest allots nothing"
  else
    fail "without a spec ctest allots nothing" "$(cat "$root/allotments" "$root/ctest-nospec.log")"
  fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
