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
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include <bankgate/gate/candidates.hpp>

namespace bankgate::gate {
namespace {

namespace fs = std::filesystem;

constexpr const char* lock_name = ".bankgate-promote.lock";
constexpr const char* journal_name = ".bankgate-promote.journal";
constexpr const char* staged_suffix = ".bankgate-staged";
constexpr const char* backup_suffix = ".bankgate-backup";

std::string reason() { return std::strerror(errno); }

// The fault-injection suite (tests/unit/promote_faults_test.sh) stops a promotion at a chosen step:
// BANKGATE_FAULT_INJECT=<step>:<index>:<kill|fail>, step "staged" (after staging file <index>) or "renamed"
// (after committing file <index>). Unset in every real run.
void fault_point(const char* step, std::size_t index) {
  static const char* spec = std::getenv("BANKGATE_FAULT_INJECT");
  if (spec == nullptr) return;
  const std::string wanted = std::string(step) + ":" + std::to_string(index) + ":";
  const std::string given = spec;
  if (given.rfind(wanted, 0) != 0) return;
  if (given.substr(wanted.size()) == "kill") std::raise(SIGKILL);
  errno = EIO;
  throw TransactionError("injected failure after " + std::string(step) + " file " + std::to_string(index));
}

bool inside(const fs::path& path, const fs::path& root) {
  const fs::path relative = path.lexically_normal().lexically_relative(root.lexically_normal());
  return !relative.empty() && *relative.begin() != ".." && !relative.is_absolute();
}

void write_all(int fd, const std::string& text, const fs::path& path) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw TransactionError("cannot write " + path.string() + ": " + reason());
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) throw TransactionError("cannot flush " + path.string() + " to disk: " + reason());
}

// Creates `path` exclusively (never through a link) with `mode`, holding `text`; removes it on failure.
void create_file(const fs::path& path, const std::string& text, mode_t mode) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) throw TransactionError("cannot create " + path.string() + ": " + reason());
  try {
    write_all(fd, text, path);
    if (::fchmod(fd, mode) != 0) throw TransactionError("cannot set the permissions of " + path.string() + ": " + reason());
  } catch (...) {
    ::close(fd);
    ::unlink(path.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    ::unlink(path.c_str());
    throw TransactionError("cannot write " + path.string() + ": " + reason());
  }
}

std::string describe_holder(int fd) {
  char text[256] = {};
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  return n > 0 ? std::string(text, static_cast<std::size_t>(n)) : std::string("another bankgate promote");
}

std::string holder_line() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return "pid " + std::to_string(::getpid()) + " on " + host + " since " + utc_now_iso8601();
}

}  // namespace

BaselineTransaction::BaselineTransaction(fs::path root, std::chrono::seconds wait) : root_(std::move(root)) {
  std::error_code ec;
  fs::create_directories(root_, ec);
  if (!fs::is_directory(root_, ec)) throw TransactionError(root_.string() + " is not a folder: baselines cannot be written there");
  // One spelling of the folder, whatever path led to it: journals hold paths relative to it.
  root_ = fs::canonical(root_, ec);
  if (ec) throw TransactionError("cannot resolve the baselines folder: " + ec.message());
  const fs::path lock = root_ / lock_name;
  lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) throw TransactionError("cannot open the baselines lock " + lock.string() + ": " + reason());
  struct stat info{};
  if (::fstat(lock_fd_, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(lock_fd_);
    lock_fd_ = -1;
    throw TransactionError(lock.string() + " is not a regular file; remove it");
  }
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) {
      const std::string why = reason();
      ::close(lock_fd_);
      lock_fd_ = -1;
      throw TransactionError("cannot lock " + lock.string() + ": " + why);
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      const std::string holder = describe_holder(lock_fd_);
      ::close(lock_fd_);
      lock_fd_ = -1;
      throw TransactionError("another promotion holds " + root_.string() + " (" + holder + "); nothing was written");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const std::string holder = holder_line();
  if (::ftruncate(lock_fd_, 0) == 0) (void)!::pwrite(lock_fd_, holder.data(), holder.size(), 0);
  try {
    recover();
  } catch (...) {
    ::close(lock_fd_);  // the destructor does not run for a constructor that throws
    lock_fd_ = -1;
    throw;
  }
}

BaselineTransaction::~BaselineTransaction() {
  if (!committed_) remove_staged();
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the lock
}

void BaselineTransaction::remove_staged() noexcept {
  for (const Entry& e : entries_) ::unlink(e.staged.c_str());
}

// An interrupted promotion: with a journal, its commit had begun and is rolled back to the state before it;
// without one, what it staged never became visible and is removed. Either way the folder ends as it was.
void BaselineTransaction::recover() {
  const fs::path journal = root_ / journal_name;
  std::error_code ec;
  if (fs::exists(journal, ec)) {
    struct Recorded {
      fs::path real, staged, backup;
      bool created;
    };
    std::vector<Recorded> entries;
    // Paths are relative to the folder; one that would leave it is a journal nobody here wrote.
    const auto resolve = [&](const nlohmann::json& entry, const char* key) {
      const fs::path path = root_ / entry.at(key).get<std::string>();
      if (!inside(path, root_)) throw TransactionError(std::string("'") + key + "' points outside the folder");
      return path;
    };
    try {
      std::ifstream in(journal);
      const nlohmann::json document = nlohmann::json::parse(in);  // kept: the entries below refer into it
      for (const auto& entry : document.at("entries"))
        entries.push_back({resolve(entry, "real"), resolve(entry, "staged"), resolve(entry, "backup"), entry.at("created").get<bool>()});
    } catch (const std::exception& e) {
      throw TransactionError("the journal " + journal.string() + " of an interrupted promotion is unusable (" + e.what() +
                             "); nothing was touched: check the baselines with git status and remove it by hand");
    }
    std::size_t restored = 0;
    for (const Recorded& e : entries) {
      if (e.created) {
        if (fs::remove(e.real, ec)) ++restored;
      } else if (fs::exists(e.backup, ec)) {
        // The same file as the target: that one was never replaced.
        const bool replaced = !fs::equivalent(e.backup, e.real, ec);
        if (!replaced) ::unlink(e.backup.c_str());
        else if (::rename(e.backup.c_str(), e.real.c_str()) != 0)
          throw TransactionError("cannot restore " + e.real.string() + " from " + e.backup.string() + ": " + reason() +
                                 "; the journal and backups are kept for the next run");
        restored += replaced ? 1 : 0;
      }
      fs::remove(e.staged, ec);
    }
    fs::remove(journal, ec);
    recovered_.push_back("rolled back an interrupted promotion (" + std::to_string(restored) + " of " +
                         std::to_string(entries.size()) + " files restored to their previous content)");
  }
  // Staging files and backups of interrupted runs, and temporaries of older bankgate versions (*.json.tmp.<pid>).
  const auto leftover = [](const std::string& name) {
    if (name.ends_with(staged_suffix) || name.ends_with(backup_suffix)) return true;
    const auto tmp = name.rfind(".json.tmp.");
    if (tmp == std::string::npos || tmp + 10 >= name.size()) return false;
    return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(tmp + 10), name.end(), [](unsigned char c) { return std::isdigit(c); });
  };
  std::vector<fs::path> found;
  for (auto it = fs::recursive_directory_iterator(root_, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code type;
    if (leftover(it->path().filename().string()) && it->is_regular_file(type)) found.push_back(it->path());
  }
  for (const fs::path& path : found) {
    std::error_code removal;
    if (fs::remove(path, removal)) recovered_.push_back("removed " + path.string() + ", left by an interrupted run");
    else recovered_.push_back("could not remove " + path.string() + " (" + removal.message() + "), left by an interrupted run");
  }
}

void BaselineTransaction::stage(const fs::path& target, const std::string& text) {
  if (committed_) throw TransactionError("a committed transaction takes no more files");
  Entry e;
  e.target = target;
  std::error_code ec;
  mode_t mode = 0644;
  // Through every link on the way (the file, or a folder above it): where the bytes would really go.
  e.real = fs::weakly_canonical(fs::absolute(target), ec);
  if (ec || !inside(e.real, root_))
    throw TransactionError(target.string() + " leads to " + (ec ? std::string("nowhere") : e.real.string()) +
                           ", outside the baselines folder " + root_.string() + " (through a symbolic link): replace the link "
                           "with the file or folder itself");
  struct stat info{};
  if (::stat(e.real.c_str(), &info) == 0) {
    if (!S_ISREG(info.st_mode))
      throw TransactionError(e.real.string() + " is not a regular file (a folder, FIFO or device); move it away first");
    mode = info.st_mode & 07777;
  } else if (errno == ENOENT) {
    e.created = true;
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0644 & ~mask;
  } else {
    throw TransactionError("cannot read " + e.real.string() + ": " + reason());
  }
  fs::create_directories(e.real.parent_path(), ec);
  if (ec) throw TransactionError("cannot create the folder " + e.real.parent_path().string() + ": " + ec.message());
  e.staged = e.real.string() + staged_suffix;
  e.backup = e.real.string() + backup_suffix;
  create_file(e.staged, text, mode);
  entries_.push_back(e);
  fault_point("staged", entries_.size());
}

std::vector<BaselineTransaction::Change> BaselineTransaction::commit() {
  // The journal first: from here on a killed run is rolled back by the next one.
  nlohmann::json entries = nlohmann::json::array();
  const auto relative = [&](const fs::path& path) { return path.lexically_relative(root_).string(); };
  for (const Entry& e : entries_)
    entries.push_back({{"real", relative(e.real)}, {"staged", relative(e.staged)}, {"backup", relative(e.backup)}, {"created", e.created}});
  // Written whole, then renamed into place: a kill leaves no journal or a complete one, never half of one.
  const fs::path journal = root_ / journal_name;
  const fs::path journal_draft = journal.string() + staged_suffix;
  ::unlink(journal_draft.c_str());
  create_file(journal_draft, nlohmann::json{{"entries", entries}}.dump(2) + "\n", 0644);
  if (::rename(journal_draft.c_str(), journal.c_str()) != 0) {
    const std::string why = reason();
    ::unlink(journal_draft.c_str());
    throw TransactionError("cannot write the journal " + journal.string() + ": " + why + "; nothing was changed");
  }

  std::size_t renamed = 0;
  try {
    for (const Entry& e : entries_)
      if (!e.created && ::link(e.real.c_str(), e.backup.c_str()) != 0)
        throw TransactionError("cannot keep a backup of " + e.real.string() + ": " + reason());
    for (const Entry& e : entries_) {
      if (::rename(e.staged.c_str(), e.real.c_str()) != 0)
        throw TransactionError("cannot replace " + e.real.string() + ": " + reason());
      ++renamed;
      fault_point("renamed", renamed);
    }
  } catch (const TransactionError& e) {
    if (!roll_back(renamed))
      throw TransactionError(std::string(e.what()) + "; restoring the previous files failed too: the journal and backups "
                             "are kept, and the next promotion of this folder restores them");
    throw TransactionError(std::string(e.what()) + "; nothing was changed (every file is as before)");
  }
  // The commit point: without the journal the new files stand.
  ::unlink(journal.c_str());
  committed_ = true;
  std::vector<Change> changes;
  for (const Entry& e : entries_) {
    ::unlink(e.backup.c_str());
    changes.push_back({e.target, e.created});
  }
  return changes;
}

bool BaselineTransaction::roll_back(std::size_t renamed) {
  bool restored = true;
  for (std::size_t i = 0; i < renamed; ++i) {
    const Entry& e = entries_[i];
    if (e.created) restored &= ::unlink(e.real.c_str()) == 0 || errno == ENOENT;
    else restored &= ::rename(e.backup.c_str(), e.real.c_str()) == 0;
  }
  if (!restored) return false;  // the journal and backups stay: recovery finishes the rollback
  for (const Entry& e : entries_) ::unlink(e.backup.c_str());
  remove_staged();
  ::unlink((root_ / journal_name).c_str());
  return true;
}

}  // namespace bankgate::gate
