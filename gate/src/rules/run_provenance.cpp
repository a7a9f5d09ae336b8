#include <bankgate/gate/rules/run_provenance.hpp>

#include <algorithm>
#include <cctype>
#include <ctime>
#include <string_view>

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

namespace {

// Whether `text` is a date as bankgate writes them, "2026-11-21T23:59:00Z" (utc_now_iso8601): the only form the
// outputs' schemas take, and one that orders as text.
bool is_utc_date(const std::string& text) {
  constexpr std::string_view form = "dddd-dd-ddTdd:dd:ddZ";
  if (text.size() != form.size()) return false;
  for (std::size_t i = 0; i < form.size(); ++i)
    if (form[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(text[i])) : text[i] != form[i]) return false;
  return true;
}

}  // namespace

void note_measurement(RunProvenance& run, const Provenance& candidate) {
  RunProvenance one;
  one.commit = candidate.git_commit;
  one.dirty = candidate.git_dirty;
  // A candidate is a file anyone may have written: a date in another form is no date the reports can give.
  one.measured = is_utc_date(candidate.date) ? candidate.date : "";
  if (!candidate.gpu_name.empty())
    one.gpus.push_back(
        {candidate.gpu_name, candidate.driver_release, candidate.driver_version, candidate.cuda_runtime_version});
  merge_provenance(run, one);
}

void note_baseline(RunProvenance& run, const Provenance& baseline) {
  auto& commits = run.baseline_commits;
  const std::string commit = baseline.git_commit.empty() ? "unknown" : baseline.git_commit;
  if (std::find(commits.begin(), commits.end(), commit) == commits.end()) {
    commits.push_back(commit);
    std::sort(commits.begin(), commits.end());
  }
}

void merge_provenance(RunProvenance& merged, const RunProvenance& part) {
  for (const MeasuredGpu& gpu : part.gpus)
    if (std::find(merged.gpus.begin(), merged.gpus.end(), gpu) == merged.gpus.end()) merged.gpus.push_back(gpu);
  if (!part.commit.empty() && merged.commit.find(part.commit) == std::string::npos)
    merged.commit += (merged.commit.empty() ? "" : ", ") + part.commit;
  merged.dirty |= part.dirty;
  // ISO 8601 dates in UTC order as text.
  if (!part.measured.empty() && (merged.measured.empty() || part.measured < merged.measured))
    merged.measured = part.measured;
  for (const std::string& commit : part.baseline_commits) {
    Provenance baseline;
    baseline.git_commit = commit;
    note_baseline(merged, baseline);
  }
}

}  // namespace bankgate::gate
