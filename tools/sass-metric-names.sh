#!/usr/bin/env bash
# Lists the per-instruction metrics (CUPTI SASS Metrics API) of this machine's GPU: the names the per-line
# attribution may ask for (metrics.hpp's instruction kinds). Needs a GPU and the CUDA toolkit.
set -euo pipefail
cd "$(dirname "$0")/.."
. ci/lib.sh
nvcc=$(bankgate_find_nvcc)
root=$(dirname "$(dirname "$nvcc")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/list.cpp" <<'CPP'
#include <cuda_runtime_api.h>
#include <cupti_profiler_target.h>
#include <cupti_sass_metrics.h>
#include <cupti_target.h>
#include <cstdio>
#include <vector>
int main() {
  cudaFree(nullptr);
  CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  cuptiProfilerInitialize(&init);
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  if (cuptiDeviceGetChipName(&chip) != CUPTI_SUCCESS) { std::fputs("no chip name (no GPU?)\n", stderr); return 1; }
  CUpti_SassMetrics_GetNumOfMetrics_Params count{CUpti_SassMetrics_GetNumOfMetrics_Params_STRUCT_SIZE};
  count.pChipName = chip.pChipName;
  if (cuptiSassMetricsGetNumOfMetrics(&count) != CUPTI_SUCCESS) { std::fputs("no SASS metrics\n", stderr); return 1; }
  std::vector<CUpti_SassMetrics_MetricDetails> details(count.numOfMetrics);
  CUpti_SassMetrics_GetMetrics_Params list{CUpti_SassMetrics_GetMetrics_Params_STRUCT_SIZE};
  list.pChipName = chip.pChipName;
  list.numOfMetrics = count.numOfMetrics;
  list.pMetricsList = details.data();
  if (cuptiSassMetricsGetMetrics(&list) != CUPTI_SUCCESS) { std::fputs("listing failed\n", stderr); return 1; }
  std::printf("chip %s: %zu per-instruction metrics\n", chip.pChipName, details.size());
  for (const auto& d : details) std::printf("%s\n", d.pMetricName);
}
CPP
cupti_header=$(bankgate_find_cupti_header "$root")
g++ -std=c++17 "$work/list.cpp" -I"$(dirname "$cupti_header")" -I"$root/include" -L"$root/lib64" \
  -L"$(dirname "$(dirname "$cupti_header")")/lib64" -lcupti -lcudart -Wl,-rpath,"$root/lib64" -o "$work/list"
"$work/list"
