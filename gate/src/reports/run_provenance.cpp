#include <bankgate/gate/run_provenance.hpp>

#include <algorithm>
#include <ctime>

#include <unistd.h>


#ifndef BANKGATE_VERSION
#error "BANKGATE_VERSION must be defined by the build (gate/CMakeLists.txt passes project()'s version)"
#endif

namespace bankgate::gate {

std::string tool_version() { return BANKGATE_VERSION; }

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string host_name() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

RunProvenance provenance_now() {
  RunProvenance run;
  run.created = utc_now_iso8601();
  run.host = host_name();
  return run;
}

void note_measurement(RunProvenance& run, const Provenance& candidate) {
  if (!candidate.git_commit.empty() && run.commit.find(candidate.git_commit) == std::string::npos)
    run.commit += (run.commit.empty() ? "" : ", ") + candidate.git_commit;
  run.dirty |= candidate.git_dirty;
  // ISO 8601 dates in UTC order as text.
  if (!candidate.date.empty() && (run.measured.empty() || candidate.date < run.measured)) run.measured = candidate.date;
  const MeasuredGpu gpu{candidate.gpu_name, candidate.driver_release, candidate.driver_version, candidate.cuda_runtime_version};
  if (!gpu.name.empty() && std::find(run.gpus.begin(), run.gpus.end(), gpu) == run.gpus.end()) run.gpus.push_back(gpu);
}

void note_baseline(RunProvenance& run, const Provenance& baseline) {
  auto& commits = run.baseline_commits;
  const std::string commit = baseline.git_commit.empty() ? "unknown" : baseline.git_commit;
  if (std::find(commits.begin(), commits.end(), commit) == commits.end()) {
    commits.push_back(commit);
    std::sort(commits.begin(), commits.end());
  }
}

}  // namespace bankgate::gate
