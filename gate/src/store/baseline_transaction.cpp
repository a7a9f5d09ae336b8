#include <bankgate/gate/baseline_transaction.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <nlohmann/json.hpp>

#include <bankgate/gate/baseline.hpp>
#include <bankgate/gate/run_protocol.hpp>

namespace bankgate::gate {
namespace {

namespace fs = std::filesystem;

constexpr const char* staged_suffix = ".bankgate-staged";
constexpr const char* backup_suffix = ".bankgate-backup";
constexpr const char* old_lock_name = ".bankgate-promote.lock";  // bankgate 0.2 locked a file; now the folder itself
constexpr std::size_t max_journal_bytes = std::size_t{1} << 20;

std::string reason() { return std::strerror(errno); }

// The fault-injection tests (tests/unit/promote_faults_test.sh, untrusted_baselines_test.sh) stop a promotion
// at a chosen step: BANKGATE_FAULT_INJECT=<step>:<index>:<kill|fail|pause>, step "staged" (after staging file
// <index>) or "renamed" (after committing file <index>); pause holds the lock 2 s longer, for a promotion
// started meanwhile to meet. Unset in every real run. Read here, not as a setting: tests alone set it.
void fault_point(const char* step, std::size_t index) {
  static const char* spec = std::getenv(protocol::env::fault_inject);
  if (spec == nullptr) return;
  const std::string wanted = std::string(step) + ":" + std::to_string(index) + ":";
  const std::string given = spec;
  if (given.rfind(wanted, 0) != 0) return;
  if (given.substr(wanted.size()) == "kill") std::raise(SIGKILL);
  if (given.substr(wanted.size()) == "pause") {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    return;
  }
  errno = EIO;
  throw TransactionError("injected failure after " + std::string(step) + " file " + std::to_string(index));
}

void write_all(int fd, const std::string& text, const std::string& shown) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw TransactionError("cannot write " + shown + ": " + reason());
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) throw TransactionError("cannot flush " + shown + " to disk: " + reason());
}

// Creates `name` in `folder` exclusively (never through a link) with `mode`, holding `text`; removes it on failure.
void create_file(int folder, const std::string& name, const std::string& text, mode_t mode, const std::string& shown) {
  const int fd = ::openat(folder, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) throw TransactionError("cannot create " + shown + ": " + reason());
  try {
    write_all(fd, text, shown);
    if (::fchmod(fd, mode) != 0) throw TransactionError("cannot set the permissions of " + shown + ": " + reason());
  } catch (...) {
    ::close(fd);
    ::unlinkat(folder, name.c_str(), 0);
    throw;
  }
  if (::close(fd) != 0) {
    ::unlinkat(folder, name.c_str(), 0);
    throw TransactionError("cannot write " + shown + ": " + reason());
  }
}

// The entry's kind without following a link; nullopt where it does not exist.
std::optional<mode_t> entry_mode(int folder, const std::string& name) {
  struct stat info{};
  if (::fstatat(folder, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) return std::nullopt;
  return info.st_mode;
}

bool same_file(int folder, const std::string& a, const std::string& b) {
  struct stat x{}, y{};
  return ::fstatat(folder, a.c_str(), &x, AT_SYMLINK_NOFOLLOW) == 0 && ::fstatat(folder, b.c_str(), &y, AT_SYMLINK_NOFOLLOW) == 0 &&
         x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

// A journal entry's file: a baseline (*.json), named by its path without links and without '.' or '..'.
// Anything else is not what bankgate writes into a journal.
void check_journal_path(const ConfinedFolder& folder, const std::string& text) {
  const fs::path path = text;
  if (text.empty() || path.is_absolute() || !text.ends_with(".json"))
    throw std::runtime_error("'" + text + "' is not the path of a baseline file inside the folder");
  for (const fs::path& part : path)
    if (part == "." || part == ".." || part.empty()) throw std::runtime_error("'" + text + "' climbs with '.' or '..'");
  if (folder.locate(path).relative != path)
    throw std::runtime_error("'" + text + "' runs through a symbolic link (a journal names files without links)");
}

}  // namespace

void refuse_interrupted_promotion(const ConfinedFolder& baselines) {
  if (!entry_mode(baselines.fd(), promote_journal_name)) return;
  throw BaselineError(baselines.root().string() + " was left half-written by an interrupted promotion (it holds " +
                      promote_journal_name + "): restore the baselines as they were before it with `bankgate recover --baselines " +
                      baselines.root().string() + "`, then try again");
}

BaselineTransaction::BaselineTransaction(const fs::path& root, std::chrono::seconds wait) try
    : folder_(root, "the baselines folder", /*create=*/true) {
  lock(wait);
  recover();
} catch (const ConfinementError& e) {
  throw TransactionError(e.what());
}

BaselineTransaction::~BaselineTransaction() {
  if (!committed_) remove_staged();
  // Closing the folder (folder_) releases the lock.
}

void BaselineTransaction::lock(std::chrono::seconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (::flock(folder_.fd(), LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) throw TransactionError("cannot lock " + root().string() + ": " + reason());
    if (std::chrono::steady_clock::now() >= deadline)
      throw TransactionError("another bankgate promotion is writing " + root().string() + " (it still held the folder's lock after " +
                             std::to_string(wait.count()) + " s); nothing was written: try again when it has finished");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

void BaselineTransaction::remove_staged() noexcept {
  for (const Entry& e : entries_) {
    try {
      const ConfinedFolder::Place place = folder_.locate(e.real);
      ::unlinkat(place.folder.get(), (place.name + staged_suffix).c_str(), 0);
    } catch (...) {
    }
  }
}

// An interrupted promotion: with a journal, its commit had begun and is rolled back to the state before it;
// without one, what it staged never became visible and is removed. Either way the folder ends as it was.
void BaselineTransaction::recover() {
  if (const auto mode = entry_mode(folder_.fd(), promote_journal_name)) {
    if (!S_ISREG(*mode))
      throw TransactionError(folder_.display(promote_journal_name).string() + " is not a regular file (a link, folder, FIFO or "
                             "device is in its place): bankgate only ever writes a file there; remove it");
    roll_back_journal();
  }
  if (const auto mode = entry_mode(folder_.fd(), old_lock_name); mode && !S_ISDIR(*mode)) {
    if (::unlinkat(folder_.fd(), old_lock_name, 0) == 0)
      recovered_.push_back("removed " + folder_.display(old_lock_name).string() + ", the lock file of an older bankgate");
  }
  remove_leftovers();
}

void BaselineTransaction::roll_back_journal() {
  const std::string journal = folder_.display(promote_journal_name).string();
  struct Recorded {
    std::string real;
    bool created;
  };
  std::vector<Recorded> entries;
  try {
    const nlohmann::json document = nlohmann::json::parse(folder_.read(promote_journal_name, max_journal_bytes));
    for (const auto& entry : document.at("entries")) {
      const std::string real = entry.at("real").get<std::string>();
      check_journal_path(folder_, real);
      if (entry.at("staged").get<std::string>() != real + staged_suffix || entry.at("backup").get<std::string>() != real + backup_suffix)
        throw std::runtime_error("the staging and backup files of '" + real + "' are not its own");
      entries.push_back({real, entry.at("created").get<bool>()});
    }
  } catch (const std::exception& e) {
    throw TransactionError("the journal " + journal + " of an interrupted promotion is unusable (" + e.what() +
                           "); nothing was touched: check the baselines with git status and remove it by hand");
  }
  std::size_t restored = 0;
  for (const Recorded& e : entries) {
    const ConfinedFolder::Place place = folder_.locate(e.real);
    const int at = place.folder.get();
    const std::string backup = place.name + backup_suffix;
    if (e.created) {
      if (::unlinkat(at, place.name.c_str(), 0) == 0) ++restored;
    } else if (const auto mode = entry_mode(at, backup)) {
      if (!S_ISREG(*mode))
        throw TransactionError("the backup of " + folder_.display(e.real).string() + " is not a regular file; the journal " + journal +
                               " was not written by bankgate: check the baselines with git status and remove it by hand");
      // The same file as the target: that one was never replaced.
      if (same_file(at, backup, place.name)) {
        ::unlinkat(at, backup.c_str(), 0);
      } else {
        if (::renameat(at, backup.c_str(), at, place.name.c_str()) != 0)
          throw TransactionError("cannot restore " + folder_.display(e.real).string() + " from its backup: " + reason() +
                                 "; the journal and backups are kept for the next run");
        ++restored;
      }
    }
    ::unlinkat(at, (place.name + staged_suffix).c_str(), 0);
  }
  ::unlinkat(folder_.fd(), promote_journal_name, 0);
  ::fsync(folder_.fd());
  recovered_.push_back("rolled back an interrupted promotion (" + std::to_string(restored) + " of " + std::to_string(entries.size()) +
                       " files restored to their previous content)");
}

// Staging files and backups of interrupted runs, and temporaries of older bankgate versions (*.json.tmp.<pid>).
// A link of such a name is removed as itself, never followed.
void BaselineTransaction::remove_leftovers() {
  const auto leftover = [](const std::string& name) {
    if (name.ends_with(staged_suffix) || name.ends_with(backup_suffix)) return true;
    const auto tmp = name.rfind(".json.tmp.");
    if (tmp == std::string::npos || tmp + 10 >= name.size()) return false;
    return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(tmp + 10), name.end(), [](unsigned char c) { return std::isdigit(c); });
  };
  std::vector<std::string> ignored;  // what else the listing found is for check-baselines to report
  for (const fs::path& path : folder_.files_below(".", leftover, ignored, /*links_as_entries=*/true)) {
    const UniqueFd parent = folder_.open_folder(path.parent_path());
    if (::unlinkat(parent.get(), path.filename().c_str(), 0) == 0)
      recovered_.push_back("removed " + folder_.display(path).string() + ", left by an interrupted run");
    else
      recovered_.push_back("could not remove " + folder_.display(path).string() + " (" + reason() + "), left by an interrupted run");
  }
}

void BaselineTransaction::stage(const fs::path& target, const std::string& text) {
  if (committed_) throw TransactionError("a committed transaction takes no more files");
  ConfinedFolder::Place place;
  try {
    place = folder_.locate(target, ConfinedFolder::Missing::create_folders);
  } catch (const ConfinementError& e) {
    throw TransactionError(e.what());
  }
  Entry e{target, place.relative, false};
  const std::string shown = folder_.display(place.relative).string();
  mode_t mode = 0644;
  struct stat info{};
  if (::fstatat(place.folder.get(), place.name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0) {
    if (!S_ISREG(info.st_mode))
      throw TransactionError(shown + " is not a regular file (a folder, FIFO or device); move it away first");
    mode = info.st_mode & 07777;
  } else if (errno == ENOENT) {
    e.created = true;
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0644 & ~mask;
  } else {
    throw TransactionError("cannot read " + shown + ": " + reason());
  }
  create_file(place.folder.get(), place.name + staged_suffix, text, mode, shown + staged_suffix);
  entries_.push_back(e);
  fault_point("staged", entries_.size());
}

std::vector<BaselineTransaction::Change> BaselineTransaction::commit() {
  // The journal first: from here on a killed run is rolled back by the next one.
  nlohmann::json entries = nlohmann::json::array();
  for (const Entry& e : entries_) {
    const std::string real = e.real.string();
    entries.push_back({{"real", real}, {"staged", real + staged_suffix}, {"backup", real + backup_suffix}, {"created", e.created}});
  }
  // Written whole, then renamed into place: a kill leaves no journal or a complete one, never half of one.
  const int root_fd = folder_.fd();
  const std::string draft = std::string(promote_journal_name) + staged_suffix;
  ::unlinkat(root_fd, draft.c_str(), 0);
  create_file(root_fd, draft, nlohmann::json{{"entries", entries}}.dump(2) + "\n", 0644, folder_.display(draft).string());
  if (::renameat(root_fd, draft.c_str(), root_fd, promote_journal_name) != 0) {
    const std::string why = reason();
    ::unlinkat(root_fd, draft.c_str(), 0);
    throw TransactionError("cannot write the journal " + folder_.display(promote_journal_name).string() + ": " + why +
                           "; nothing was changed");
  }

  std::size_t renamed = 0;
  try {
    for (const Entry& e : entries_) {
      const ConfinedFolder::Place place = folder_.locate(e.real);
      if (!e.created &&
          ::linkat(place.folder.get(), place.name.c_str(), place.folder.get(), (place.name + backup_suffix).c_str(), 0) != 0)
        throw TransactionError("cannot keep a backup of " + folder_.display(e.real).string() + ": " + reason());
    }
    for (const Entry& e : entries_) {
      const ConfinedFolder::Place place = folder_.locate(e.real);
      if (::renameat(place.folder.get(), (place.name + staged_suffix).c_str(), place.folder.get(), place.name.c_str()) != 0)
        throw TransactionError("cannot replace " + folder_.display(e.real).string() + ": " + reason());
      ++renamed;
      fault_point("renamed", renamed);
    }
  } catch (const std::runtime_error& e) {  // TransactionError, or a ConfinementError of a folder changed meanwhile
    if (!roll_back(renamed))
      throw TransactionError(std::string(e.what()) + "; restoring the previous files failed too: the journal and backups "
                             "are kept; run `bankgate recover --baselines " + root().string() + "` to restore them");
    throw TransactionError(std::string(e.what()) + "; nothing was changed (every file is as before)");
  }
  // The commit point: without the journal the new files stand.
  ::unlinkat(root_fd, promote_journal_name, 0);
  ::fsync(root_fd);
  committed_ = true;
  std::vector<Change> changes;
  for (const Entry& e : entries_) {
    const ConfinedFolder::Place place = folder_.locate(e.real);
    ::unlinkat(place.folder.get(), (place.name + backup_suffix).c_str(), 0);
    changes.push_back({folder_.display(e.target), e.created});
  }
  return changes;
}

bool BaselineTransaction::roll_back(std::size_t renamed) {
  bool restored = true;
  for (std::size_t i = 0; i < renamed; ++i) {
    const Entry& e = entries_[i];
    const ConfinedFolder::Place place = folder_.locate(e.real);
    const int at = place.folder.get();
    if (e.created) restored &= ::unlinkat(at, place.name.c_str(), 0) == 0 || errno == ENOENT;
    else restored &= ::renameat(at, (place.name + backup_suffix).c_str(), at, place.name.c_str()) == 0;
  }
  if (!restored) return false;  // the journal and backups stay: recovery finishes the rollback
  for (const Entry& e : entries_) {
    const ConfinedFolder::Place place = folder_.locate(e.real);
    ::unlinkat(place.folder.get(), (place.name + backup_suffix).c_str(), 0);
  }
  remove_staged();
  ::unlinkat(folder_.fd(), promote_journal_name, 0);
  return true;
}

}  // namespace bankgate::gate
