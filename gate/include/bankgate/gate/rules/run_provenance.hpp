#pragma once
// Where a report's numbers come from: the bankgate that made it, when and on which host; the commit and
// GPUs that were measured; the commits of the baselines they were judged against. Every output (the JSON
// models, the HTML report, JUnit) states it, so that a result read weeks later still says what it compared.

#include <string>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>

namespace bankgate::gate {

std::string tool_version();     // this bankgate's version, as CMake's project() gives it: "0.4.0"
std::string host_name();        // this machine's name; empty where the system does not say
std::string utc_now_iso8601();  // "2026-11-21T23:59:00Z"

// One GPU the measurements were taken on, as its candidates recorded it.
struct MeasuredGpu {
  std::string name;            // "NVIDIA H200"
  std::string driver_release;  // "580.159.04"
  int driver_version = 0;      // the CUDA API level the driver offers, e.g. 13000
  int cuda_runtime_version = 0;
  bool operator==(const MeasuredGpu&) const = default;
};

struct RunProvenance {
  std::string tool_version = gate::tool_version();
  std::string created;  // when the report was made: UTC, ISO 8601
  std::string host;     // where it was made
  // What was measured: the commit of the measured build as its candidates recorded it ("" where unknown; two
  // builds' commits joined by ", " where a run mixes them), with uncommitted changes or not, and when.
  std::string commit;
  bool dirty = false;
  std::string measured;  // the earliest candidate's date
  std::vector<MeasuredGpu> gpus;
  std::vector<std::string>
      baseline_commits;  // of every baseline file read, each once, sorted; base build's for a compare
};

// A provenance stamped now, on this host, by this bankgate; the rest is filled by the notes below.
RunProvenance provenance_now();
// What one candidate file (of the measured build) and one baseline file add to it.
void note_measurement(RunProvenance& run, const Provenance& candidate);
void note_baseline(RunProvenance& run, const Provenance& baseline);
// What a part's provenance adds to a merge of several runs' reports (a gate split over runners).
void merge_provenance(RunProvenance& merged, const RunProvenance& part);

}  // namespace bankgate::gate
