#include "base_baselines.hpp"

#include <cstdlib>
#include <regex>
#include <set>
#include <sstream>

#include <bankgate/gate/protocol/run_protocol.hpp>

#include "commands.hpp"
#include "process.hpp"

namespace bankgate::cli {

namespace fs = std::filesystem;

namespace {

std::string commit_of(const fs::path& folder, const std::string& ref) {
  // A word that git would take for an option is no revision.
  if (ref.empty() || ref.front() == '-') return "";
  return program_output({"git", "-C", folder.string(), "rev-parse", "--verify", "--quiet", ref + "^{commit}"});
}

std::string fetch_advice(const fs::path& folder) {
  return "no base branch to compare the baselines of " + folder.string() +
         " with, so a change that loosens them could pass unseen: fetch it (`git fetch origin main`; in GitHub "
         "Actions, actions/checkout with fetch-depth: 0), or name one with --base-ref REF or " +
         gate::protocol::env::base_ref + "; --base-ref " + no_base +
         " checks nothing and says so (a folder outside version control)";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Where `folder` lies under `top`, by its path as written: the links on the way (the folder itself included) are
// kept as links, each added to `links`.
fs::path path_in_repository(const fs::path& folder, const fs::path& top, std::vector<fs::path>& links) {
  std::error_code ec;
  const fs::path real_top = fs::canonical(top, ec);
  fs::path walk = fs::absolute(folder).lexically_normal();
  if (walk.filename().empty()) walk = walk.parent_path();
  std::vector<fs::path> parts;
  while (!walk.empty() && fs::canonical(walk, ec) != real_top) {
    if (fs::is_symlink(fs::symlink_status(walk, ec))) links.push_back(walk);
    parts.push_back(walk.filename());
    if (walk == walk.parent_path()) return {};
    walk = walk.parent_path();
  }
  fs::path relative;
  for (auto part = parts.rbegin(); part != parts.rend(); ++part) relative /= *part;
  return relative;
}

// The folders of the base's tree that hold baselines (<folder>/sm_*/<model>/<suite>.json).
std::set<fs::path> base_baseline_folders(const fs::path& top, const std::string& commit) {
  static const std::regex layout(R"((.*/)?sm_[0-9a-z]+/[A-Za-z0-9_-]+/[^/]+\.json)");
  std::set<fs::path> folders;
  for (const std::string& file :
       lines_of(program_output({"git", "-C", top.string(), "ls-tree", "-r", "--name-only", commit})))
    if (std::regex_match(file, layout)) folders.insert(fs::path(file).parent_path().parent_path().parent_path());
  return folders;
}

}  // namespace

std::optional<BaseRef> find_base(const fs::path& folder, const std::string& option) {
  std::string ref = option;
  const char* setting = std::getenv(gate::protocol::env::base_ref);
  if (ref.empty() && setting != nullptr) ref = setting;
  if (ref == no_base) return std::nullopt;
  if (!ref.empty()) {
    const std::string commit = commit_of(folder, ref);
    if (commit.empty())
      throw Refusal("the base ref '" + ref + "' (" +
                    (option.empty() ? std::string(gate::protocol::env::base_ref) : "--base-ref") +
                    ") names no commit of the repository of " + folder.string() +
                    ": give a branch or commit the clone has (fetch it first; a shallow clone may lack it)");
    return BaseRef{commit, ref};
  }
  const std::string commit = commit_of(folder, "origin/main").empty()
                                 ? ""
                                 : program_output({"git", "-C", folder.string(), "merge-base", "HEAD", "origin/main"});
  if (commit.empty()) throw std::runtime_error(fetch_advice(folder));
  return BaseRef{commit, "origin/main (merge base)"};
}

BaseBaselines::BaseBaselines(const fs::path& folder, BaseRef base) : base_(std::move(base)) {
  top_ = program_output({"git", "-C", folder.string(), "rev-parse", "--show-toplevel"});
  std::vector<fs::path> links;
  const fs::path here = path_in_repository(folder, top_, links);
  for (const fs::path& link : links) {
    std::error_code ec;
    folder_changes_.push_back({link.string() + " is a link (to " + fs::read_symlink(link, ec).string() +
                                   "): the baselines are compared by where the repository keeps them, and a link "
                                   "in their path is a change a reviewer accepts",
                               true});
  }
  there_ = here;
  // A folder the base had that this checkout no longer has is where a folder now missing from the base came from.
  std::vector<fs::path> gone;
  for (const fs::path& held : base_baseline_folders(top_, base_.commit)) {
    if (held == here) return;
    std::error_code ec;
    if (!fs::is_directory(fs::symlink_status(top_ / held, ec))) gone.push_back(held);
  }
  if (gone.size() == 1) {
    there_ = gone.front();
    folder_changes_.push_back({"the baselines folder was " + there_.generic_string() + " at the base and is " +
                                   here.generic_string() + " now: compared with the base's",
                               false});
  } else if (gone.size() > 1) {
    folder_changes_.push_back({std::to_string(gone.size()) + " baselines folders of the base are gone and " +
                                   here.generic_string() + " is new: which it was moved from cannot be told",
                               true});
  }
}

std::optional<std::string> BaseBaselines::text(const fs::path& relative) const {
  const std::string spec = base_.commit + ":" + (there_ / relative).generic_string();
  if (run_program({"git", "-C", top_.string(), "cat-file", "-e", spec}, "/dev/null") != 0) return std::nullopt;
  return program_output({"git", "-C", top_.string(), "cat-file", "blob", spec});
}

std::vector<fs::path> BaseBaselines::files() const {
  std::vector<fs::path> files;
  const std::string prefix = there_.empty() ? "" : there_.generic_string() + "/";
  for (const std::string& line : lines_of(program_output({"git", "-C", top_.string(), "ls-tree", "-r", "--name-only",
                                                          base_.commit, "--", there_.empty() ? "." : prefix})))
    if (line.ends_with(".json") && line.starts_with(prefix)) files.emplace_back(line.substr(prefix.size()));
  return files;
}

}  // namespace bankgate::cli
