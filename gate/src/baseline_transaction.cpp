#include <bankgate/gate/baseline_transaction.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

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
  recover();
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
    std::ifstream in(journal);
    nlohmann::json entries;
    try {
      entries = nlohmann::json::parse(in).at("entries");
    } catch (const std::exception& e) {
      throw TransactionError("the journal " + journal.string() + " of an interrupted promotion is unreadable (" + e.what() +
                             "); check the baselines with git status and remove it by hand");
    }
    std::size_t restored = 0;
    for (const auto& entry : entries) {
      const fs::path real = entry.at("real").get<std::string>();
      const fs::path backup = entry.at("backup").get<std::string>();
      if (entry.at("created").get<bool>()) {
        if (fs::remove(real, ec)) ++restored;
      } else if (fs::exists(backup, ec)) {
        // The same file as the target: that one was never replaced.
        const bool replaced = !fs::equivalent(backup, real, ec);
        if (!replaced) ::unlink(backup.c_str());
        else if (::rename(backup.c_str(), real.c_str()) != 0)
          throw TransactionError("cannot restore " + real.string() + " from " + backup.string() + ": " + reason());
        restored += replaced ? 1 : 0;
      }
      fs::remove(entry.at("staged").get<std::string>(), ec);
    }
    fs::remove(journal, ec);
    recovered_.push_back("rolled back an interrupted promotion (" + std::to_string(restored) + " of " +
                         std::to_string(entries.size()) + " files restored to their previous content)");
  }
  // Staging files, backups of finished promotions and temporaries of older bankgate versions (*.tmp.<pid>).
  for (auto it = fs::recursive_directory_iterator(root_, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const bool ours = name.ends_with(staged_suffix) || name.ends_with(backup_suffix) ||
                      (name.find(".json.tmp.") != std::string::npos);
    if (ours && it->is_regular_file(ec)) {
      recovered_.push_back("removed " + it->path().string() + ", left by an interrupted run");
      fs::remove(it->path(), ec);
    }
  }
}

void BaselineTransaction::stage(const fs::path& target, const std::string& text) {
  if (committed_) throw TransactionError("a committed transaction takes no more files");
  if (!inside(target, root_)) throw TransactionError(target.string() + " is outside the baselines folder " + root_.string());
  Entry e;
  e.target = target;
  e.real = target;
  std::error_code ec;
  mode_t mode = 0644;
  const fs::file_status link = fs::symlink_status(target, ec);
  if (fs::is_symlink(link)) {
    e.real = fs::canonical(target, ec);
    if (ec || !inside(e.real, fs::canonical(root_)))
      throw TransactionError(target.string() + " is a symbolic link to " + (ec ? std::string("nowhere") : e.real.string()) +
                             ", outside the baselines folder: replace it with the file itself");
  }
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
  for (const Entry& e : entries_)
    entries.push_back({{"real", e.real.string()}, {"staged", e.staged.string()}, {"backup", e.backup.string()}, {"created", e.created}});
  const fs::path journal = root_ / journal_name;
  create_file(journal, nlohmann::json{{"entries", entries}}.dump(2) + "\n", 0644);

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
    roll_back(renamed);
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

void BaselineTransaction::roll_back(std::size_t renamed) {
  for (std::size_t i = 0; i < renamed; ++i) {
    const Entry& e = entries_[i];
    if (e.created) ::unlink(e.real.c_str());
    else (void)::rename(e.backup.c_str(), e.real.c_str());
  }
  for (const Entry& e : entries_) ::unlink(e.backup.c_str());
  remove_staged();
  ::unlink((root_ / journal_name).c_str());
}

}  // namespace bankgate::gate
