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
      // A candidate is <arch>/<model>/<suite>/<test>.json and says so inside; one that disagrees with its
      // place was moved or edited, and which of the two to believe is not ours to guess.
      const std::string folder_suite = suite_dir.path().filename().string();
      const std::string file_test = entry.path().stem().string();
      if (one.suite != folder_suite || !(one.gpu == gpu) || one.tests.size() != 1 || !one.tests.count(file_test))
        throw BaselineError(entry.path().string() + ": its suite, GPU or test (" + one.suite + ", " + one.gpu.arch + "/" +
                            one.gpu.model + ", " + (one.tests.empty() ? std::string("none") : one.tests.begin()->first) +
                            ") disagree with where it lies; re-run the suite instead of moving candidates");
      auto [it, first] = suites.try_emplace(one.suite, one);
      if (first) continue;
      for (const auto& [name, record] : one.tests)
        if (!it->second.tests.emplace(name, record).second)
          throw BaselineError(entry.path().string() + ": " + one.suite + "." + name + " is measured twice in " +
                              (dir / gpu.relative_dir()).string() + "; clear the candidates and run again");
    }
  }
  return suites;
}

}  // namespace bankgate::gate
