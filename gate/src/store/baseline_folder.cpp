#include <bankgate/gate/store/baseline_folder.hpp>

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/rules/gpu_key.hpp>
#include <bankgate/gate/store/atomic_file.hpp>
#include <bankgate/gate/store/baseline_transaction.hpp>
#include <bankgate/gate/store/input_file.hpp>

namespace bankgate::gate {

namespace fs = std::filesystem;

fs::path suite_file_relative(const GpuKey& gpu, const std::string& suite) {
  return gpu.relative_dir() / (suite + ".json");
}

bool lies_inside(const fs::path& folder, const fs::path& project) {
  std::error_code ec;
  const fs::path resolved_project = fs::canonical(project, ec);
  if (ec) return false;
  const fs::path relative = fs::weakly_canonical(folder, ec).lexically_relative(resolved_project);
  return !ec && !relative.empty() && *relative.begin() != "..";
}

fs::path candidate_baselines_folder(const fs::path& named, const fs::path& project, const std::string& suite) {
  if (named.empty())
    throw BaselineError("the candidates of suite " + suite +
                        " do not say which baselines folder they belong to "
                        "(written by an older bankgate); pass --baselines DIR");
  if (project.empty())
    throw BaselineError(
        "the candidates of suite " + suite + " name the baselines folder " + named.string() +
        ", but without the build folder that recorded them bankgate cannot check that it belongs to the "
        "project: pass --build DIR, or --baselines DIR");
  if (!named.is_absolute() || !lies_inside(named, project))
    throw BaselineError(
        "the candidates of suite " + suite + " name the baselines folder '" + named.string() +
        "', which is not inside the project " + project.string() +
        " (a candidate cannot choose which baselines are read or written); pass --baselines DIR to name the "
        "folder yourself");
  return named;
}

// A suite file read, its samples and per-line figures charged to the run's budget (input_file.hpp).
static SuiteFile charged(SuiteFile file, const std::string& name) {
  std::size_t samples = 0, lines = 0;
  for (const auto& [test, record] : file.tests)
    for (const KernelRecord* kernel : record.kernels()) {
      samples += kernel->samples_ns.size();
      lines += kernel->lines.size();
    }
  try {
    charge_figures(samples, lines, name);
  } catch (const InputFileError& e) {
    throw BaselineError(e.what());
  }
  return file;
}

SuiteFile read_suite_file(const ConfinedFolder& folder, const fs::path& relative,
                          const std::set<std::string>* known_metrics) {
  std::string text;
  try {
    text = folder.read(relative);
  } catch (const std::exception& e) {  // ConfinementError, InputFileError
    throw BaselineError(e.what());
  }
  return charged(parse_suite_file(text, folder.display(relative).string(), known_metrics),
                 folder.display(relative).string());
}

BaselineFolder::BaselineFolder(const fs::path& root) : root_(root) {
  struct stat info {};
  if (::stat(root.c_str(), &info) != 0) {
    if (errno == ENOENT) return;  // no baselines yet
    throw BaselineError("the baselines folder " + root.string() + " cannot be read: " + std::strerror(errno));
  }
  try {
    folder_.emplace(root, "the baselines folder");
  } catch (const ConfinementError& e) {
    throw BaselineError(e.what());
  }
  refuse_interrupted_promotion(*folder_);
}

std::optional<SuiteFile> BaselineFolder::read(const GpuKey& gpu, const std::string& suite,
                                              const std::set<std::string>* known_metrics) const {
  if (!folder_) return std::nullopt;
  const fs::path relative = suite_file_relative(gpu, suite);
  try {
    if (!folder_->kind(relative)) return std::nullopt;
  } catch (const ConfinementError& e) {
    throw BaselineError(e.what());
  }
  SuiteFile file = read_suite_file(*folder_, relative, known_metrics);
  // A baseline reached through a link must still be this suite's: a link from A.json to B.json would
  // otherwise gate A's tests against B's records.
  if (file.suite != suite || !(file.gpu == gpu))
    throw BaselineError(folder_->display(relative).string() + ": holds " + file.suite + " for " + file.gpu.arch + "/" +
                        file.gpu.model + ", not " + suite + " for " + gpu.arch + "/" + gpu.model +
                        " (a link to another suite's file?)");
  return file;
}

std::vector<GpuKey> BaselineFolder::gpus(std::vector<std::string>& problems) const {
  return folder_ ? gpu_folders(*folder_, problems) : std::vector<GpuKey>{};
}

std::vector<GpuKey> gpu_folders(const ConfinedFolder& folder, std::vector<std::string>& problems) {
  std::vector<GpuKey> found;
  for (const std::string& arch : folder.folders_in(".", problems))
    for (const std::string& model : folder.folders_in(arch, problems)) found.push_back({arch, model});
  return found;  // folders_in sorts: arch, then model
}

SuiteFile read_suite_file(const std::filesystem::path& path, const std::set<std::string>* known_metrics) {
  // A folder or FIFO in a baseline's place must be reported, never skipped or waited on; a huge file is refused.
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const InputFileError& e) {
    throw BaselineError(e.what());
  }
  return charged(parse_suite_file(text, path.string(), known_metrics), path.string());
}

void write_suite_file(const std::filesystem::path& path, const SuiteFile& file, Samples samples) {
  const std::string text = serialize_suite_file(file, samples);
  parse_suite_file(text, path.string() + " (about to be written)");  // never write what cannot be read back
  write_file_atomically(path, [&](std::ostream& out) { out << text; });
}

std::vector<GpuKey> gpu_folders(const std::filesystem::path& root) {
  std::error_code ec;
  if (!std::filesystem::is_directory(root, ec)) return {};
  std::vector<std::string> problems;  // links and odd entries are not GPU folders; check-baselines names them
  return gpu_folders(ConfinedFolder(root, "the folder"), problems);
}

GpuKey choose_gpu(const std::filesystem::path& root, const std::string& wanted) {
  if (!wanted.empty()) return parse_gpu_key(wanted);
  const std::vector<GpuKey> found = gpu_folders(root);
  if (found.size() == 1) return found.front();
  std::string names;
  for (const GpuKey& key : found) names += (names.empty() ? "" : ", ") + key.arch + "/" + key.model;
  throw std::invalid_argument(found.empty() ? "no GPU folder (ARCH/MODEL) under " + root.string()
                                            : "GPU folders " + names + " under " + root.string() +
                                                  "; choose one with --gpu ARCH/MODEL");
}

}  // namespace bankgate::gate
