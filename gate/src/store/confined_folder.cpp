#include <bankgate/gate/store/confined_folder.hpp>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <set>

namespace bankgate::gate {
namespace {

namespace fs = std::filesystem;

// More than any real folder of baselines, candidates or sources has; beyond them a listing is refused.
constexpr int max_links_followed = 40;  // as the kernel's own limit (ELOOP)
constexpr int max_listing_depth = 32;
constexpr std::size_t max_listed_entries = 200000;

std::string error_text() { return std::strerror(errno); }

std::deque<std::string> components(const fs::path& path) {
  std::deque<std::string> parts;
  for (const fs::path& part : path) parts.push_back(part.string());
  return parts;
}

std::string read_link(int folder, const std::string& name, const std::string& shown) {
  std::string target(PATH_MAX, '\0');
  const ssize_t n = ::readlinkat(folder, name.c_str(), target.data(), target.size());
  if (n < 0) throw ConfinementError("cannot read the link " + shown + ": " + error_text());
  target.resize(static_cast<std::size_t>(n));
  return target;
}

std::optional<ConfinedFolder::Kind> kind_of(const struct stat& info) {
  if (S_ISREG(info.st_mode)) return ConfinedFolder::Kind::file;
  if (S_ISDIR(info.st_mode)) return ConfinedFolder::Kind::folder;
  return ConfinedFolder::Kind::other;
}

}  // namespace

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) ::close(fd_);
}

int UniqueFd::release() noexcept {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

ConfinedFolder::ConfinedFolder(const fs::path& root, std::string what, bool create)
    : root_(root), what_(std::move(what)) {
  if (root.empty()) throw ConfinementError(what_ + " is an empty path: name a folder");
  if (create) {
    std::error_code ec;
    fs::create_directories(root, ec);
    if (ec) throw ConfinementError("cannot create " + what_ + " " + root.string() + ": " + ec.message());
  }
  fd_ = UniqueFd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (fd_.get() < 0)
    throw ConfinementError(what_ + " " + root.string() +
                           (errno == ENOTDIR ? std::string(" is not a folder") : " cannot be opened: " + error_text()));
}

namespace {

// The folder `part` inside `folder`; O_NOFOLLOW: a link put in its place since it was looked at is refused, not
// followed. `shown` is its path, for the error.
UniqueFd open_subfolder(int folder, const std::string& part, const fs::path& shown) {
  UniqueFd next(::openat(folder, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (next.get() < 0)
    throw ConfinementError(shown.string() + (errno == ENOTDIR ? std::string(" is not a folder") : ": " + error_text()));
  return next;
}

}  // namespace

ConfinedFolder::Place ConfinedFolder::locate(const fs::path& relative, Missing missing) const {
  const std::string shown = display(relative).string();
  if (relative.is_absolute() || relative.has_root_name())
    throw ConfinementError(shown + ": an absolute path where a path inside " + what_ + " " + root_.string() +
                           " is expected");
  std::vector<UniqueFd> open_folders;  // the root, then each folder entered
  open_folders.emplace_back(::dup(fd_.get()));
  if (open_folders.back().get() < 0) throw ConfinementError("cannot open " + root_.string() + ": " + error_text());
  std::vector<std::string> names;  // the path without links so far
  std::deque<std::string> todo = components(relative);
  int links = 0;
  const auto escape = [&](const std::string& how) {
    return ConfinementError(shown + " leads outside " + what_ + " " + root_.string() + " (" + how +
                            "): replace the link with the file or folder itself");
  };
  const auto path_so_far = [&] {
    fs::path p;
    for (const std::string& n : names) p /= n;
    return p;
  };
  while (!todo.empty()) {
    const std::string part = todo.front();
    todo.pop_front();
    // A NUL ends the name for the system: "..\0x" would be compared here as a name and opened there as "..".
    if (part.find('\0') != std::string::npos)
      throw ConfinementError(shown + ": a name holds a NUL byte; no file is named so");
    if (part.empty() || part == ".") continue;
    if (part == "..") {
      if (names.empty()) throw escape("through '..'");
      names.pop_back();
      open_folders.pop_back();
      continue;
    }
    const int folder = open_folders.back().get();
    const bool last = todo.empty();
    struct stat info {};
    if (::fstatat(folder, part.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno != ENOENT)
        throw ConfinementError("cannot read " + (root_ / path_so_far() / part).string() + ": " + error_text());
      if (last && missing != Missing::refuse) return {std::move(open_folders.back()), part, path_so_far() / part};
      if (last || missing != Missing::create_folders)
        throw MissingEntryError((root_ / path_so_far() / part).string() + " does not exist");
      if (::mkdirat(folder, part.c_str(), 0777) != 0 && errno != EEXIST)
        throw ConfinementError("cannot create the folder " + (root_ / path_so_far() / part).string() + ": " +
                               error_text());
    } else if (S_ISLNK(info.st_mode)) {
      if (++links > max_links_followed) throw ConfinementError(shown + ": too many symbolic links (a loop?)");
      const std::string target = read_link(folder, part, (root_ / path_so_far() / part).string());
      if (target.empty() || target.front() == '/') throw escape("a symbolic link to the absolute path " + target);
      std::deque<std::string> expanded = components(target);
      todo.insert(todo.begin(), expanded.begin(), expanded.end());
      continue;
    }
    if (last) return {std::move(open_folders.back()), part, path_so_far() / part};
    open_folders.push_back(open_subfolder(folder, part, root_ / path_so_far() / part));
    names.push_back(part);
  }
  return {std::move(open_folders.back()), ".", path_so_far()};
}

std::optional<ConfinedFolder::Kind> ConfinedFolder::kind(const fs::path& relative) const {
  Place place;
  try {
    place = locate(relative, Missing::allow_last);
  } catch (const MissingEntryError&) {
    return std::nullopt;
  }
  struct stat info {};
  if (::fstatat(place.folder.get(), place.name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return std::nullopt;
    throw ConfinementError("cannot read " + display(place.relative).string() + ": " + error_text());
  }
  return kind_of(info);
}

std::string ConfinedFolder::read(const fs::path& relative, std::size_t max_bytes) const {
  const Place place = locate(relative, Missing::refuse);
  // O_NONBLOCK: a FIFO is refused by read_input_fd instead of waited on.
  const UniqueFd file(
      ::openat(place.folder.get(), place.name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  if (file.get() < 0) throw ConfinementError(display(relative).string() + " cannot be opened: " + error_text());
  return read_input_fd(file.get(), display(relative).string(), max_bytes);
}

ConfinedFolder::Listing ConfinedFolder::list(const fs::path& relative) const {
  Listing listing{locate(relative, Missing::refuse).relative, {}, false};
  UniqueFd folder = open_folder(relative);
  DIR* dir = ::fdopendir(folder.get());
  if (dir == nullptr) throw ConfinementError("cannot list " + display(relative).string() + ": " + error_text());
  folder.release();  // the DIR owns it now
  for (const dirent* entry = ::readdir(dir); entry != nullptr; entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    if (listing.entries.size() >= max_listed_entries) {
      listing.truncated = true;
      break;
    }
    struct stat info {};
    if (::fstatat(::dirfd(dir), name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0)
      listing.entries.emplace_back(name, info.st_mode);
  }
  ::closedir(dir);
  std::sort(listing.entries.begin(), listing.entries.end());
  return listing;
}

std::optional<fs::path> ConfinedFolder::file_behind_link(const fs::path& link, bool wanted,
                                                         std::vector<std::string>& problems) const {
  // Every link is looked at, wanted or not: one that leads outside is worth a word wherever it is.
  try {
    const Place target = locate(link, Missing::refuse);
    const std::optional<Kind> k = kind(link);
    if (k == Kind::folder)
      problems.push_back(display(link).string() +
                         " is a symbolic link to a folder, which bankgate does not follow "
                         "while listing: replace the link with the folder itself");
    else if (!wanted)
      return std::nullopt;
    else if (k == Kind::file)
      return target.relative;
    else
      problems.push_back(display(link).string() + " leads to something that is not a regular file");
  } catch (const ConfinementError& e) {
    problems.push_back(e.what());
  }
  return std::nullopt;
}

UniqueFd ConfinedFolder::open_folder(const fs::path& relative) const {
  const Place place = locate(relative, Missing::refuse);
  UniqueFd folder(::openat(place.folder.get(), place.name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (folder.get() < 0)
    throw ConfinementError("cannot open the folder " + display(relative).string() + ": " + error_text());
  return folder;
}

std::vector<std::string> ConfinedFolder::folders_in(const fs::path& relative,
                                                    std::vector<std::string>& problems) const {
  const Listing listing = list(relative);
  if (listing.truncated)
    problems.push_back(display(listing.relative).string() + ": too many entries; the rest were not read");
  std::vector<std::string> folders;
  for (const auto& [name, mode] : listing.entries) {
    if (S_ISDIR(mode))
      folders.push_back(name);
    else if (S_ISLNK(mode))
      file_behind_link(listing.relative / name, false, problems);
  }
  return folders;
}

std::vector<fs::path> ConfinedFolder::files_below(const fs::path& relative,
                                                  const std::function<bool(const std::string&)>& wanted,
                                                  std::vector<std::string>& problems, bool links_as_entries) const {
  std::set<fs::path> files;
  std::size_t visited = 0;
  const std::function<void(const fs::path&, int)> walk = [&](const fs::path& folder, int depth) {
    if (depth > max_listing_depth) {
      problems.push_back(display(folder).string() + " lies more than " + std::to_string(max_listing_depth) +
                         " folders deep; it was not read");
      return;
    }
    const Listing listing = list(folder);
    visited += listing.entries.size();
    if (listing.truncated || visited > max_listed_entries) {
      problems.push_back(display(listing.relative).string() + ": too many entries; the rest were not read");
      return;
    }
    for (const auto& [name, mode] : listing.entries) {
      const fs::path path = listing.relative / name;
      if (S_ISDIR(mode) && wanted(name))
        problems.push_back(display(path).string() + " is not a regular file (a folder is in its place); move it away");
      else if (S_ISDIR(mode))
        walk(path, depth + 1);
      else if (S_ISREG(mode) && wanted(name))
        files.insert(path);
      else if (S_ISLNK(mode) && links_as_entries && wanted(name))
        files.insert(path);
      else if (S_ISLNK(mode)) {
        if (auto file = file_behind_link(path, wanted(name), problems)) files.insert(*file);
      } else if (!S_ISREG(mode) && wanted(name))
        problems.push_back(display(path).string() +
                           " is not a regular file (a FIFO, socket or device is in its place)");
    }
  };
  walk(relative, 0);
  return {files.begin(), files.end()};
}

}  // namespace bankgate::gate
