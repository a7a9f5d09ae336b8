#pragma once
// A folder whose contents come from outside bankgate: a pull request's baselines, a build's candidates, a
// project's sources. Every path inside it is resolved from one open handle of the folder, component by
// component, never by comparing strings: '..' may not climb above the folder, a symbolic link is followed only
// while where it leads stays inside (an absolute link, or one that climbs out, is refused), and every file is
// opened relative to the folder it was found in. Nothing reached through a ConfinedFolder lies outside it.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <bankgate/gate/store/input_file.hpp>

namespace bankgate::gate {

class ConfinementError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// A component of the path does not exist (the path does not lead outside; there is simply nothing there).
class MissingEntryError : public ConfinementError {
 public:
  using ConfinementError::ConfinementError;
};

// An open file descriptor, closed with its owner.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd();
  int get() const { return fd_; }
  int release() noexcept;

 private:
  int fd_ = -1;
};

class ConfinedFolder {
 public:
  // Opens `root`, which the user named (so links leading to the folder itself are followed); `what` names it
  // in messages ("the baselines folder"). With `create`, a missing folder is made first. Throws
  // ConfinementError when it is not a folder.
  ConfinedFolder(const std::filesystem::path& root, std::string what, bool create = false);

  const std::filesystem::path& root() const { return root_; }
  const std::string& what() const { return what_; }
  int fd() const { return fd_.get(); }
  std::filesystem::path display(const std::filesystem::path& relative) const { return root_ / relative; }

  // Where an entry really lies: the folder that holds it (open) and its name there, after every link on the
  // way has been followed inside. `relative` is the path without links, from the root.
  struct Place {
    UniqueFd folder;
    std::string name;  // "." for the root itself
    std::filesystem::path relative;
  };
  enum class Missing {
    refuse,          // every component must exist
    allow_last,      // the last may be missing (about to be created)
    create_folders,  // the last may be missing; missing folders on the way are made
  };
  Place locate(const std::filesystem::path& relative, Missing missing = Missing::allow_last) const;

  enum class Kind { file, folder, other };
  // What the entry is once links are followed (never a link); nullopt where it, or a folder on its way, does
  // not exist.
  std::optional<Kind> kind(const std::filesystem::path& relative) const;

  // The whole of a regular file (capped; see input_file.hpp). Throws ConfinementError or InputFileError.
  std::string read(const std::filesystem::path& relative, std::size_t max_bytes = max_input_bytes) const;

  // Every file below the folder `relative` (links followed inside) whose name `wanted` accepts, as paths
  // without links, sorted and each once. Folders reached through links are not entered; what leads outside
  // and what is neither file nor folder is reported in `problems`. With `links_as_entries`, a wanted link is
  // listed as itself, unresolved (for removing the link). Depth and count are bounded, so no folder can make
  // it run long.
  std::vector<std::filesystem::path> files_below(const std::filesystem::path& relative,
                                                 const std::function<bool(const std::string&)>& wanted,
                                                 std::vector<std::string>& problems,
                                                 bool links_as_entries = false) const;

  // The folder `relative` itself, opened (for operations on the entries in it, links included).
  UniqueFd open_folder(const std::filesystem::path& relative) const;

  // The folders directly in the folder `relative` (real folders only; links to folders are reported in
  // `problems`), sorted by name.
  std::vector<std::string> folders_in(const std::filesystem::path& relative, std::vector<std::string>& problems) const;

 private:
  struct Listing {
    std::filesystem::path relative;                         // of the folder listed, without links
    std::vector<std::pair<std::string, unsigned>> entries;  // name and st_mode (links not followed), by name
    bool truncated = false;
  };
  Listing list(const std::filesystem::path& relative) const;
  std::optional<std::filesystem::path> file_behind_link(const std::filesystem::path& link, bool wanted,
                                                        std::vector<std::string>& problems) const;

  std::filesystem::path root_;
  std::string what_;
  UniqueFd fd_;
};

}  // namespace bankgate::gate
