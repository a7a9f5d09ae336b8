#include "base_baselines.hpp"

#include <cstdlib>
#include <sstream>

#include <bankgate/gate/protocol/run_protocol.hpp>

#include "commands.hpp"
#include "process.hpp"

namespace bankgate::cli {

namespace fs = std::filesystem;

std::optional<BaseRef> find_base(const fs::path& folder, const std::string& option) {
  std::string ref = option;
  const char* setting = std::getenv(gate::protocol::env::base_ref);
  if (ref.empty() && setting != nullptr) ref = setting;
  const std::string dir = folder.string();
  if (!ref.empty()) {
    // A word that git would take for an option is no revision.
    const std::string commit =
        ref.front() == '-' ? ""
                           : program_output({"git", "-C", dir, "rev-parse", "--verify", "--quiet", ref + "^{commit}"});
    if (commit.empty())
      throw Refusal("the base ref '" + ref + "' (" +
                    (option.empty() ? std::string(gate::protocol::env::base_ref) : "--base-ref") +
                    ") names no commit of the repository of " + dir +
                    ": give a branch or commit the clone has (fetch it "
                    "first; a shallow clone may lack it)");
    return BaseRef{commit, ref};
  }
  if (program_output({"git", "-C", dir, "rev-parse", "--verify", "--quiet", "origin/main^{commit}"}).empty())
    return std::nullopt;
  const std::string commit = program_output({"git", "-C", dir, "merge-base", "HEAD", "origin/main"});
  if (commit.empty()) return std::nullopt;
  return BaseRef{commit, "origin/main (merge base)"};
}

std::optional<std::string> base_text(const fs::path& folder, const std::string& commit, const fs::path& relative) {
  // "<commit>:./<path>" is a path relative to the folder git runs in.
  const std::string spec = commit + ":./" + relative.generic_string();
  if (run_program({"git", "-C", folder.string(), "cat-file", "-e", spec}, "/dev/null") != 0) return std::nullopt;
  return program_output({"git", "-C", folder.string(), "cat-file", "blob", spec});
}

std::vector<fs::path> base_files(const fs::path& folder, const std::string& commit) {
  std::vector<fs::path> files;
  std::istringstream listing(
      program_output({"git", "-C", folder.string(), "ls-tree", "-r", "--name-only", commit, "--", "."}));
  for (std::string line; std::getline(listing, line);)
    if (line.ends_with(".json")) files.emplace_back(line);
  return files;
}

}  // namespace bankgate::cli
