#include <bankgate/gate/store/candidates.hpp>

#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/store/parallel_map.hpp>
#include <bankgate/gate/rules/run_provenance.hpp>

namespace bankgate::gate {

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
  file.provenance.bankgate_version = tool_version();
  file.tests[test] = record;
  write_suite_file(candidate_path(dir, gpu, suite, test), file, Samples::keep);
}

namespace {

// A candidate says inside which test of which suite on which GPU it is; one that disagrees with its place was moved
// or edited, and which of the two to believe is not ours to guess.
void check_placed(const ConfinedFolder& folder, const std::filesystem::path& relative, const SuiteFile& one,
                  const GpuKey& gpu) {
  const bool placed = one.tests.size() == 1 && one.gpu == gpu &&
                      gpu.relative_dir() / one.suite / (one.tests.begin()->first + ".json") == relative;
  if (!placed)
    throw BaselineError(folder.display(relative).string() + ": its suite, GPU or test (" + one.suite + ", " +
                        one.gpu.arch + "/" + one.gpu.model + ", " +
                        (one.tests.empty() ? std::string("none") : one.tests.begin()->first) +
                        ") disagree with where it lies; re-run the suite instead of moving candidates");
}

}  // namespace

std::optional<TestRecord> read_candidate(const std::filesystem::path& dir, const GpuKey& gpu, const std::string& suite,
                                         const std::string& test) {
  const std::filesystem::path relative = gpu.relative_dir() / suite / (test + ".json");
  std::error_code ec;
  if (!std::filesystem::exists(dir / relative, ec)) return std::nullopt;
  const ConfinedFolder folder(dir, "the candidates folder");
  const SuiteFile one = read_suite_file(folder, relative);
  check_placed(folder, relative, one, gpu);
  return one.tests.begin()->second;
}

namespace {

// The candidate files under <dir>/<arch>/<model>/, in the listing's order (sorted, depth first).
std::vector<std::filesystem::path> candidate_files(const ConfinedFolder& folder, const GpuKey& gpu) {
  std::vector<std::string> problems;
  const auto files = folder.files_below(
      gpu.relative_dir(), [](const std::string& name) { return name.ends_with(".json"); }, problems);
  if (!problems.empty()) throw BaselineError(problems.front() + "; re-run the suites instead of editing candidates");
  return files;
}

}  // namespace

std::optional<SuiteFile> read_first_candidate(const std::filesystem::path& dir, const GpuKey& gpu) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir / gpu.relative_dir(), ec)) return std::nullopt;
  const ConfinedFolder folder(dir, "the candidates folder");
  const auto files = candidate_files(folder, gpu);
  if (files.empty()) return std::nullopt;
  SuiteFile first = read_suite_file(folder, files.front());
  check_placed(folder, files.front(), first, gpu);
  return first;
}

std::map<std::string, SuiteFile> read_candidates(const std::filesystem::path& dir, const GpuKey& gpu) {
  namespace fs = std::filesystem;
  std::map<std::string, SuiteFile> suites;
  std::error_code ec;
  if (!fs::is_directory(dir / gpu.relative_dir(), ec)) return suites;
  const ConfinedFolder folder(dir, "the candidates folder");
  const auto files = candidate_files(folder, gpu);
  // Read and checked on the machine's cores, merged in order.
  std::vector<Computed<SuiteFile>> read = map_in_parallel<SuiteFile>(files.size(), [&](std::size_t i) {
    SuiteFile one = read_suite_file(folder, files[i]);
    check_placed(folder, files[i], one, gpu);  // <arch>/<model>/<suite>/<test>.json ('/' in parameterised names)
    return one;
  });
  for (std::size_t i = 0; i < files.size(); ++i) {
    const fs::path& relative = files[i];
    const SuiteFile& one = read[i].get();
    auto [it, first] = suites.try_emplace(one.suite, one);
    if (first) continue;
    for (const auto& [name, record] : one.tests)
      if (!it->second.tests.emplace(name, record).second)
        throw BaselineError(folder.display(relative).string() + ": " + one.suite + "." + name +
                            " is measured twice in " + (dir / gpu.relative_dir()).string() +
                            "; clear the candidates and run again");
  }
  return suites;
}

}  // namespace bankgate::gate
