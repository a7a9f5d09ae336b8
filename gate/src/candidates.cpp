#include <bankgate/gate/candidates.hpp>

#include <ctime>

namespace bankgate::gate {

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::filesystem::path candidate_path(const std::filesystem::path& dir, const GpuKey& gpu, const std::string& suite,
                                     const std::string& test) {
  return dir / gpu.relative_dir() / suite / (test + ".json");
}

void write_candidate(const std::filesystem::path& dir, const GpuKey& gpu, const Provenance& device,
                     const std::string& suite, const std::string& test, const TestRecord& record,
                     const std::filesystem::path& baseline_dir) {
  SuiteFile file;
  file.baseline_dir = baseline_dir;
  file.suite = suite;
  file.gpu = gpu;
  file.provenance = device;
  file.provenance.command = "GPU suite run of " + suite + "." + test;
  file.provenance.date = utc_now_iso8601();
  file.tests[test] = record;
  write_suite_file(candidate_path(dir, gpu, suite, test), file, Samples::keep);
}

std::map<std::string, SuiteFile> read_candidates(const std::filesystem::path& dir, const GpuKey& gpu) {
  std::map<std::string, SuiteFile> suites;
  const std::filesystem::path root = dir / gpu.relative_dir();
  if (!std::filesystem::is_directory(root)) return suites;
  for (const auto& suite_dir : std::filesystem::directory_iterator(root)) {
    if (!suite_dir.is_directory()) continue;
    for (const auto& entry : std::filesystem::directory_iterator(suite_dir.path())) {
      if (entry.path().extension() != ".json") continue;
      const SuiteFile one = read_suite_file(entry.path());
      auto [it, first] = suites.try_emplace(one.suite, one);
      if (!first)
        for (const auto& [name, record] : one.tests) it->second.tests[name] = record;
    }
  }
  return suites;
}

}  // namespace bankgate::gate
