#!/usr/bin/env bash
# One round of GPU work on a lent machine, for this repository's developers: the seed catalogue's gate against
# the committed baselines (or, with --record-catalogue, a refresh that records them for this GPU first), then
# examples/adopt as an outside project: record and promote its baselines, gate, and gate a planted conflict.
# Headers the machine lacks (CLI11, pugixml, nlohmann-json) come in .deps/usr (Debian packages unpacked).
# Logs and a tarball of every baselines folder go to $OUT; a short table is printed last.
#   ci/device-round.sh [--record-catalogue]
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-build/device-round}
mkdir -p "$out"
record=0
[ "${1:-}" = "--record-catalogue" ] && record=1
[ -d .deps/usr ] && export CMAKE_PREFIX_PATH=$PWD/.deps/usr
export BANKGATE_GIT_COMMIT=${BANKGATE_GIT_COMMIT:-unknown} BANKGATE_GIT_DIRTY=${BANKGATE_GIT_DIRTY:-0}
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader | tee "$out/gpu.txt"
rows=()
row() { rows+=("$(printf '%-44s %s' "$1" "$2")"); }
timed() { local start=$SECONDS; "$@"; local rc=$?; elapsed=$((SECONDS - start)); return $rc; }

# 1. The seed catalogue.
if [ "$record" = 1 ]; then
  timed bash ci/refresh-baselines.sh --new-gpu >"$out/catalogue-refresh.log" 2>&1
  row "catalogue refresh --new-gpu" "exit $? (${elapsed}s)"
fi
timed bash ci/gate.sh >"$out/catalogue-gate.log" 2>&1
row "catalogue gate" "exit $? (${elapsed}s)"
tail -n 4 "$out/catalogue-gate.log"

# 2. examples/adopt, built with bankgate as a subdirectory; the command from that build.
ex=build/adopt
cmake -S examples/adopt -B "$ex" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DBANKGATE_FROM=subdirectory -DBANKGATE_SOURCE_DIR="$PWD" >"$out/adopt-configure.log" 2>&1 &&
  cmake --build "$ex" >"$out/adopt-build.log" 2>&1
row "adopt: configure and build" "exit $?"
bankgate=$ex/bankgate/cli/bankgate
timed "$bankgate" refresh --build "$ex" --new-gpu >"$out/adopt-refresh.log" 2>&1
row "adopt: bankgate refresh --new-gpu" "exit $? (${elapsed}s)"
timed "$bankgate" gate --build "$ex" >"$out/adopt-gate.log" 2>&1
row "adopt: bankgate gate" "exit $? (${elapsed}s)"
cp "$ex/bankgate/gate/summary.json" "$out/adopt-gate-summary.json" 2>/dev/null

# 3. A planted regression: the tile loses its padding column (32-way conflicts on the column reads).
cp examples/adopt/transpose.cu "$out/transpose.cu.orig"
sed -i 's/tile\[transpose_tile\]\[transpose_tile + 1\]/tile[transpose_tile][transpose_tile]/' examples/adopt/transpose.cu
timed "$bankgate" gate --build "$ex" >"$out/adopt-planted.log" 2>&1
row "adopt: gate with the padding removed" "exit $? (${elapsed}s; 1 expected)"
cp "$out/transpose.cu.orig" examples/adopt/transpose.cu
cmake --build "$ex" >/dev/null 2>&1
cp "$ex/bankgate/gate/junit.xml" "$out/adopt-planted-junit.xml" 2>/dev/null

tar -czf "$out/baselines.tgz" baselines examples/adopt/baselines README.md 2>/dev/null
echo
echo "== failure message of the planted regression =="
grep -A14 'bankgate\] Transpose.PaddedTile' "$out/adopt-planted.log" | head -n 30
echo
echo "== device round =="
printf '%s\n' "${rows[@]}"
