#!/usr/bin/env bash
# The machine code's side of the shared-memory figures: dumps the SASS of the built kernels with cuobjdump and
# prints, per kernel, how many LDS, LDS.64, LDS.128, STS.*, LDSM and LDGSTS instructions it holds, so that a
# transactions-per-request figure can be traced to the instructions behind it (TiledMatmul's A-row reads fused
# into LDS.128, AsyncCopy's copies done by LDGSTS).
#
#   tools/sass-report.sh [BUILD_DIR] [--kernel REGEX] [--lines]
#
# BUILD_DIR is a configured and built tree (default build/test, which ci/test.sh builds); its kernels library
# (kernels/libbankgate_kernels.a) is read, or the kernels' object files where there is no library. A file
# (library, object, executable, cubin) may be given instead. --kernel keeps kernels whose name matches,
# --lines lists their shared-memory instructions too. Needs cuobjdump from the CUDA toolkit (found on PATH,
# beside nvcc, or as BANKGATE_CUOBJDUMP); needs no GPU. Exit codes: 0 done; 2 nothing to report; 3 missing
# cuobjdump, build or python3.
set -uo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh

target=build/test
report_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --kernel) [ $# -ge 2 ] || bankgate_die "--kernel needs a regular expression"; report_args+=(--kernel "$2"); shift 2 ;;
    --lines) report_args+=(--lines); shift ;;
    -*) bankgate_die "unknown option '$1' (use BUILD_DIR, --kernel REGEX, --lines)" ;;
    *) target=$1; shift ;;
  esac
done

command -v python3 >/dev/null 2>&1 || bankgate_die "python3 is needed to read the SASS; install it (Debian/Ubuntu: python3)"

# cuobjdump ships with the full toolkit (package cuda-cuobjdump-13-0), not with every CUDA image: look on PATH,
# then beside the toolkit's nvcc.
cuobjdump=${BANKGATE_CUOBJDUMP:-}
if [ -z "$cuobjdump" ]; then
  for candidate in "$(command -v cuobjdump 2>/dev/null)" "${CUDA_HOME:+$CUDA_HOME/bin/cuobjdump}" /usr/local/cuda/bin/cuobjdump; do
    [ -n "$candidate" ] && [ -x "$candidate" ] && { cuobjdump=$candidate; break; }
  done
  if [ -z "$cuobjdump" ] && nvcc=$( (bankgate_find_nvcc) 2>/dev/null) && [ -x "$(dirname "$nvcc")/cuobjdump" ]; then
    cuobjdump="$(dirname "$nvcc")/cuobjdump"
  fi
fi
[ -n "$cuobjdump" ] && [ -x "$cuobjdump" ] ||
  bankgate_die "cuobjdump was not found${cuobjdump:+ at '$cuobjdump'}: it is part of the full CUDA toolkit (package" \
    "cuda-cuobjdump-13-0); install it, put it on PATH or set BANKGATE_CUOBJDUMP"

inputs=()
if [ -f "$target" ]; then
  inputs=("$target")
elif [ -f "$target/kernels/libbankgate_kernels.a" ]; then
  inputs=("$target/kernels/libbankgate_kernels.a")
else
  for object in "$target"/kernels/CMakeFiles/bankgate_kernels.dir/*.o; do
    [ -f "$object" ] && inputs+=("$object")
  done
fi
[ ${#inputs[@]} -gt 0 ] ||
  bankgate_die "no built kernels in '$target' (looked for kernels/libbankgate_kernels.a and its objects): build" \
    "first (ci/test.sh builds build/test) or pass the build folder"

sass=$(mktemp)
trap 'rm -f "$sass"' EXIT
for input in "${inputs[@]}"; do
  "$cuobjdump" -sass "$input" >>"$sass" || bankgate_die "cuobjdump -sass failed on $input (its message is above)"
done
echo "SASS of ${inputs[*]} (cuobjdump: $cuobjdump)"
# Kernel names are the command's rule (bankgate kernel-name): the build's own command where it has one.
[ -d "$target" ] && [ -x "$target/cli/bankgate" ] && export BANKGATE_COMMAND="$target/cli/bankgate"
python3 tools/sass_report.py "${report_args[@]}" "$sass"
