#include <bankgate/gate/store/baseline_transaction.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <regex>
#include <thread>

#include <nlohmann/json.hpp>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/text/text.hpp>

namespace bankgate::gate {
namespace {

namespace fs = std::filesystem;

constexpr const char* staged_suffix = ".bankgate-staged-";
constexpr const char* backup_suffix = ".bankgate-backup-";
constexpr const char* old_lock_name = ".bankgate-promote.lock";  // bankgate 0.2 locked a file; now the folder itself
constexpr std::size_t max_journal_bytes = std::size_t{1} << 20;

std::string reason() { return std::strerror(errno); }

// The fault-injection tests (tests/unit/promote_faults_test.sh, untrusted_baselines_test.sh) stop a promotion
// at a chosen step: BANKGATE_FAULT_INJECT=<step>:<index>:<kill|fail|pause>, step "staged" (after staging file
// <index>) or "renamed" (after committing file <index>); pause holds the lock 2 s longer, for a promotion
// started meanwhile to meet. Unset in every real run. Read here, not as a setting: tests alone set it.
void fault_point(const char* step, std::size_t index) {
  static const char* spec = std::getenv(fault_inject_variable);
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

// A suffix no file of a pull request can be expected to carry: staging and backup files are told apart from
// anything else in the folder by it (and by their identity in the journal).
std::string random_suffix() {
  std::random_device device;
  char text[32];
  std::snprintf(text, sizeof text, "%d-%08x%08x", static_cast<int>(::getpid()), device(), device());
  return text;
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
  struct stat info {};
  if (::fstatat(folder, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0) return std::nullopt;
  return info.st_mode;
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

// Whether nobody but this user (and root) can move or replace what `folder` holds: owned by this user or root,
// written by no one else, or a sticky folder of root's (/tmp), where others cannot move this user's entries.
bool only_this_user_moves(const fs::path& folder) {
  struct stat info {};
  if (::lstat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode)) return false;
  if (info.st_uid != ::getuid() && info.st_uid != 0) return false;
  return (info.st_mode & 022) == 0 || (info.st_uid == 0 && (info.st_mode & S_ISVTX) != 0);
}

// The folder for this user's journals, made where missing: only this user may write it, and every folder above it
// up to the root is this user's or root's, written by nobody else (a folder others can write, or one that is a
// link, is refused: someone else could place a journal there, or move the journals away).
fs::path own_journal_folder() {
  fs::path folder = journal_folder();
  std::error_code ec;
  fs::create_directories(folder, ec);
  ::chmod(folder.c_str(), 0700);
  struct stat info {};
  if (::lstat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != ::getuid() ||
      (info.st_mode & 022) != 0)
    throw TransactionError("the journal folder " + folder.string() +
                           " is not a folder that only this user may write (" + (ec ? ec.message() : reason()) +
                           "): set XDG_STATE_HOME to a folder of your own");
  for (fs::path above = folder.parent_path(); !above.empty(); above = above.parent_path()) {
    if (!only_this_user_moves(above))
      throw TransactionError("the journal folder " + folder.string() + " lies in " + above.string() +
                             ", which another user can write or owns: they could move the journals away. Set "
                             "XDG_STATE_HOME to a folder whose parents only you and root can write");
    if (above == above.parent_path()) break;
  }
  return folder;
}

// What tells the baselines folder apart from another that later takes its inode (a deleted project's): its
// canonical path and birth time, kept in the journal beside the device and inode its name carries.
nlohmann::json folder_identity(const ConfinedFolder& folder) {
  struct statx info {};
  long long birth = 0;
  if (::statx(folder.fd(), "", AT_EMPTY_PATH, STATX_BTIME, &info) == 0 && (info.stx_mask & STATX_BTIME) != 0)
    birth = info.stx_btime.tv_sec * 1000000000LL + info.stx_btime.tv_nsec;
  std::error_code ec;
  return {{"path", fs::canonical(folder.root(), ec).string()}, {"birth_ns", birth}};
}

// Whether a journal written for `written` is this folder's: the same birth where both know one, else the same path.
// A journal of a bankgate before 0.5 carries no identity: its name (device and inode) is all it has.
bool same_folder(const nlohmann::json& written, const nlohmann::json& now) {
  if (written.empty()) return true;
  const long long was = written.value("birth_ns", 0LL), is = now.value("birth_ns", 0LL);
  if (was != 0 && is != 0) return was == is;
  return written.value("path", std::string()) == now.value("path", std::string());
}

// The journal's name: the baselines folder's device and inode, so that every spelling of its path finds it.
std::string journal_name(const ConfinedFolder& folder) {
  struct stat info {};
  if (::fstat(folder.fd(), &info) != 0)
    throw TransactionError("cannot read " + folder.root().string() + ": " + reason());
  return std::to_string(info.st_dev) + "-" + std::to_string(info.st_ino) + ".journal";
}

// The journal's text, read only from a regular file this user owns and nobody else may write.
std::string read_journal(const fs::path& path) {
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
  struct stat info {};
  if (fd.get() < 0 || ::fstat(fd.get(), &info) != 0 || !S_ISREG(info.st_mode))
    throw std::runtime_error("it is not a regular file (" + reason() + ")");
  if (info.st_uid != ::getuid() || (info.st_mode & 022) != 0)
    throw std::runtime_error("it is not this user's own file (owner " + std::to_string(info.st_uid) + ", mode " +
                             std::to_string(info.st_mode & 0777) + "): bankgate writes journals 0600");
  return read_input_fd(fd.get(), path.string(), max_journal_bytes);
}

}  // namespace

fs::path journal_folder() {
  const char* state = std::getenv("XDG_STATE_HOME");
  if (state != nullptr && state[0] == '/') return fs::path(state) / "bankgate" / "journals";
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] == '/') return fs::path(home) / ".local" / "state" / "bankgate" / "journals";
  return fs::path("/tmp") / ("bankgate-state-" + std::to_string(::getuid())) / "journals";
}

std::optional<fs::path> interrupted_promotion(const ConfinedFolder& baselines) {
  const fs::path journal = journal_folder() / journal_name(baselines);
  struct stat info {};
  if (::lstat(journal.c_str(), &info) != 0) return std::nullopt;
  return journal;
}

std::string recover_command(const fs::path& root) {
  return command_line({"bankgate", "recover", "--baselines", quoted_name(root.string())});
}

void refuse_interrupted_promotion(const ConfinedFolder& baselines) {
  std::optional<fs::path> journal;
  try {
    journal = interrupted_promotion(baselines);
  } catch (const TransactionError& e) {
    throw BaselineError(e.what());
  }
  if (!journal) return;
  throw BaselineError(baselines.root().string() +
                      " was left half-written by an interrupted promotion on this machine (its journal is " +
                      journal->string() + "): restore the baselines as they were before it with `" +
                      recover_command(baselines.root()) + "`, then try again");
}

BaselineTransaction::BaselineTransaction(const fs::path& root, std::chrono::seconds wait) try
    : folder_(root, "the baselines folder", /*create=*/true) {
  lock(wait);
  journal_ = own_journal_folder() / journal_name(folder_);
  recover();
  remove_leftover_staging();
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
    if (errno != EWOULDBLOCK && errno != EINTR)
      throw TransactionError("cannot lock " + root().string() + ": " + reason());
    if (std::chrono::steady_clock::now() >= deadline)
      throw TransactionError("another bankgate promotion is writing " + root().string() +
                             " (it still held the folder's lock after " + std::to_string(wait.count()) +
                             " s); nothing was written: try again when it has finished");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

namespace {

bool is(const struct stat& info, unsigned long long device, unsigned long long inode, unsigned long long size) {
  return S_ISREG(info.st_mode) && info.st_dev == device && info.st_ino == inode &&
         static_cast<unsigned long long>(info.st_size) == size;
}

}  // namespace

void BaselineTransaction::remove_staged() noexcept {
  try {
    undo(entries_, Phase::staging);
    if (!entries_.empty()) remove_journal();
  } catch (...) {
  }
}

// What a journal holds: its phase and its entries, each checked to be a baseline of the folder with staging and
// backup files of its own name.
void BaselineTransaction::write_journal(Phase phase) const {
  nlohmann::json entries = nlohmann::json::array();
  const auto id = [](const FileId& f) {
    return nlohmann::json{{"device", f.device}, {"inode", f.inode}, {"size", f.size}, {"mtime_ns", f.mtime_ns}};
  };
  for (const Entry& e : entries_)
    entries.push_back({{"real", e.real.string()},
                       {"created", e.created},
                       {"staged", e.staged},
                       {"backup", e.backup},
                       {"staged_file", id(e.staged_id)},
                       {"original_file", id(e.original_id)}});
  const char* phases[] = {"staging", "committing", "committed"};
  const nlohmann::json document = {{"folder", root().string()},
                                   {"folder_identity", folder_identity(folder_)},
                                   {"phase", phases[static_cast<int>(phase)]},
                                   {"entries", entries}};
  // Written whole, then renamed into place: a kill leaves the previous journal or this one, never half of one.
  const fs::path draft = journal_.string() + ".draft";
  const UniqueFd journals(::open(journal_.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  ::unlink(draft.c_str());
  create_file(journals.get(), draft.filename().string(), json_text(document) + "\n", 0600, draft.string());
  if (::rename(draft.c_str(), journal_.c_str()) != 0) {
    const std::string why = reason();
    ::unlink(draft.c_str());
    throw TransactionError("cannot write the journal " + journal_.string() + ": " + why);
  }
  ::fsync(journals.get());
}

void BaselineTransaction::remove_journal() const {
  ::unlink(journal_.c_str());
  const UniqueFd journals(::open(journal_.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (journals.get() >= 0) ::fsync(journals.get());
}

BaselineTransaction::Undone BaselineTransaction::undo(const std::vector<Entry>& entries, Phase phase) const {
  Undone done;
  const auto same = [](const struct stat& info, const FileId& f) {
    return is(info, f.device, f.inode, f.size) &&
           info.st_mtim.tv_sec * 1000000000LL + info.st_mtim.tv_nsec == f.mtime_ns;
  };
  for (const Entry& e : entries) {
    ConfinedFolder::Place place;
    try {
      place = folder_.locate(e.real);
    } catch (const ConfinementError& error) {
      done.problems.push_back(error.what());
      continue;
    }
    const int at = place.folder.get();
    const auto stat_of = [&](const std::string& name) {
      struct stat info {};
      return ::fstatat(at, name.c_str(), &info, AT_SYMLINK_NOFOLLOW) == 0 ? std::optional<struct stat>(info)
                                                                          : std::nullopt;
    };
    const std::string shown = folder_.display(e.real).string();
    const auto staged = stat_of(e.staged);
    if (staged && is(*staged, e.staged_id.device, e.staged_id.inode, e.staged_id.size))
      ::unlinkat(at, e.staged.c_str(), 0);
    if (phase == Phase::staging) continue;
    const auto target = stat_of(place.name);
    const auto backup = stat_of(e.backup);
    const bool backup_is_original = backup && same(*backup, e.original_id);
    // Only what this promotion wrote is undone: a file that is neither it nor the baseline it replaced is someone's
    // (a checkout since, a pull request's) and stays.
    const bool target_is_written = target && is(*target, e.staged_id.device, e.staged_id.inode, e.staged_id.size);
    if (phase == Phase::committed || !target_is_written) {
      if (backup_is_original) ::unlinkat(at, e.backup.c_str(), 0);
      if (phase == Phase::committing && target && !(!e.created && same(*target, e.original_id)))
        done.notes.push_back(shown + " is not the file this promotion wrote: it changed since, and was left as it is");
    } else if (e.created) {
      if (::unlinkat(at, place.name.c_str(), 0) == 0) ++done.restored;
    } else if (!backup_is_original) {
      done.problems.push_back(shown + " cannot be restored: its backup " + e.backup + " is " +
                              (backup ? "not the file this promotion kept" : "gone") +
                              "; it was left as it is (check it with git status)");
    } else if (::renameat(at, e.backup.c_str(), at, place.name.c_str()) == 0) {
      ++done.restored;
    } else {
      done.problems.push_back("cannot restore " + shown + " from its backup: " + reason());
    }
  }
  return done;
}

// An interrupted promotion of this folder on this machine, from its journal: one killed while committing is
// rolled back to the state before it; one killed while staging or after its commit has its own leftovers
// removed. Either way the folder ends as the promotion would have left it, and only its own files are touched.
void BaselineTransaction::recover() {
  if (const auto mode = entry_mode(folder_.fd(), old_lock_name); mode && !S_ISDIR(*mode)) {
    if (::unlinkat(folder_.fd(), old_lock_name, 0) == 0)
      recovered_.push_back("removed " + folder_.display(old_lock_name).string() +
                           ", the lock file of an older bankgate");
  }
  struct stat info {};
  if (::lstat(journal_.c_str(), &info) != 0) return;
  std::vector<Entry> entries;
  Phase phase = Phase::staging;
  try {
    const nlohmann::json document = nlohmann::json::parse(read_journal(journal_));
    if (!same_folder(document.value("folder_identity", nlohmann::json::object()), folder_identity(folder_)))
      return set_aside_journal(document.value("folder", std::string("another folder")));
    const std::string written = document.at("phase").get<std::string>();
    phase = written == "committing" ? Phase::committing : written == "committed" ? Phase::committed : Phase::staging;
    if (written != "staging" && written != "committing" && written != "committed")
      throw std::runtime_error("unknown phase " + written);
    const auto id = [](const nlohmann::json& f) {
      return FileId{f.at("device").get<unsigned long long>(), f.at("inode").get<unsigned long long>(),
                    f.at("size").get<unsigned long long>(), f.at("mtime_ns").get<long long>()};
    };
    for (const auto& entry : document.at("entries")) {
      Entry e;
      e.real = entry.at("real").get<std::string>();
      check_journal_path(folder_, e.real.string());
      e.created = entry.at("created").get<bool>();
      e.staged = entry.at("staged").get<std::string>();
      e.backup = entry.at("backup").get<std::string>();
      const std::string name = e.real.filename().string();
      if (!e.staged.starts_with(name + staged_suffix) || !e.backup.starts_with(name + backup_suffix) ||
          e.staged.find('/') != std::string::npos || e.backup.find('/') != std::string::npos)
        throw std::runtime_error("the staging and backup files of '" + e.real.string() + "' are not its own");
      e.staged_id = id(entry.at("staged_file"));
      e.original_id = id(entry.at("original_file"));
      entries.push_back(std::move(e));
    }
  } catch (const std::exception& e) {
    throw TransactionError("the journal " + journal_.string() + " of an interrupted promotion is unusable (" +
                           e.what() +
                           "); nothing was touched: check the baselines with git status, then remove the journal");
  }
  const Undone done = undo(entries, phase);
  for (const std::string& note : done.notes) recovered_.push_back(note);
  if (!done.problems.empty()) {
    std::string all;
    for (const std::string& p : done.problems) all += "\n  " + p;
    throw TransactionError("an interrupted promotion of " + root().string() +
                           " could not be rolled back entirely:" + all + "\nthe journal " + journal_.string() +
                           " is kept; once the baselines are as they should be (git status), remove it");
  }
  remove_journal();
  if (phase == Phase::committing)
    recovered_.push_back("rolled back an interrupted promotion (" + std::to_string(done.restored) + " of " +
                         std::to_string(entries.size()) + " files restored to their previous content)");
  else
    recovered_.push_back("removed the staging and backup files of an interrupted promotion (" +
                         std::to_string(entries.size()) + " files; no baseline had changed " +
                         (phase == Phase::staging ? "yet" : "from what it committed") + ")");
}

void BaselineTransaction::stage(const fs::path& target, const std::string& text) {
  if (committed_) throw TransactionError("a committed transaction takes no more files");
  ConfinedFolder::Place place;
  try {
    place = folder_.locate(target, ConfinedFolder::Missing::create_folders);
  } catch (const ConfinementError& e) {
    throw TransactionError(e.what());
  }
  const std::string suffix = random_suffix();
  Entry e{target, place.relative, false, place.name + staged_suffix + suffix, place.name + backup_suffix + suffix, {},
          {}};
  const std::string shown = folder_.display(place.relative).string();
  mode_t mode = 0644;
  struct stat info {};
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
  create_file(place.folder.get(), e.staged, text, mode,
              folder_.display(place.relative.parent_path() / e.staged).string());
  if (::fstatat(place.folder.get(), e.staged.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0)
    throw TransactionError("cannot read back " + e.staged + ": " + reason());
  e.staged_id = {info.st_dev, info.st_ino, static_cast<unsigned long long>(info.st_size), 0};
  entries_.push_back(e);
  write_journal(Phase::staging);  // from here on a killed run's staging files are known to the next one
  fault_point("staged", entries_.size());
}

std::vector<BaselineTransaction::Change> BaselineTransaction::commit() {
  // The baselines each backup will keep, then the journal: from here on a killed run is rolled back by the next one.
  for (Entry& e : entries_) {
    if (e.created) continue;
    const ConfinedFolder::Place place = folder_.locate(e.real);
    struct stat info {};
    if (::fstatat(place.folder.get(), place.name.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(info.st_mode))
      throw TransactionError(folder_.display(e.real).string() +
                             " changed while it was being promoted; nothing was changed");
    e.original_id = {info.st_dev, info.st_ino, static_cast<unsigned long long>(info.st_size),
                     info.st_mtim.tv_sec * 1000000000LL + info.st_mtim.tv_nsec};
  }
  write_journal(Phase::committing);
  std::size_t renamed = 0;
  try {
    for (const Entry& e : entries_) {
      const ConfinedFolder::Place place = folder_.locate(e.real);
      if (!e.created && ::linkat(place.folder.get(), place.name.c_str(), place.folder.get(), e.backup.c_str(), 0) != 0)
        throw TransactionError("cannot keep a backup of " + folder_.display(e.real).string() + ": " + reason());
    }
    for (const Entry& e : entries_) {
      const ConfinedFolder::Place place = folder_.locate(e.real);
      if (::renameat(place.folder.get(), e.staged.c_str(), place.folder.get(), place.name.c_str()) != 0)
        throw TransactionError("cannot replace " + folder_.display(e.real).string() + ": " + reason());
      ++renamed;
      fault_point("renamed", renamed);
    }
  } catch (const std::runtime_error& e) {  // TransactionError, or a ConfinementError of a folder changed meanwhile
    const Undone done = undo(entries_, Phase::committing);
    entries_.clear();  // what is left is the journal's to recover, not the destructor's to remove
    if (!done.problems.empty())
      throw TransactionError(std::string(e.what()) +
                             "; restoring the previous files failed too: the journal and backups "
                             "are kept; run `" +
                             recover_command(root()) + "` to restore them");
    remove_journal();
    throw TransactionError(std::string(e.what()) + "; nothing was changed (every file is as before)");
  }
  // The commit point: from here on the new files stand, and only the backups are left to remove.
  write_journal(Phase::committed);
  committed_ = true;
  undo(entries_, Phase::committed);
  remove_journal();
  std::vector<Change> changes;
  for (const Entry& e : entries_) changes.push_back({folder_.display(e.target), e.created});
  return changes;
}

std::vector<fs::path> leftover_staging_files(const ConfinedFolder& baselines) {
  // As stage() names them: the baseline's name, the suffix, the process id and 16 hex digits (random_suffix).
  static const std::regex staging_name(R"(.+\.json\.bankgate-staged-[0-9]+-[0-9a-f]{16})");
  std::vector<std::string> problems;  // a folder that cannot be listed is the readers' to name
  return baselines.files_below(
      "", [](const std::string& name) { return std::regex_match(name, staging_name); }, problems,
      /*links_as_entries=*/true);
}

// With the lock held and any journal recovered, every staging file left in the folder is a dead promotion's that
// was killed between creating it and journaling it: nothing else names it, and it is removed.
void BaselineTransaction::remove_leftover_staging() {
  std::size_t removed = 0;
  for (const fs::path& relative : leftover_staging_files(folder_)) {
    const ConfinedFolder::Place place = folder_.locate(relative);
    if (::unlinkat(place.folder.get(), place.name.c_str(), 0) == 0) ++removed;
  }
  if (removed > 0)
    recovered_.push_back("removed " + std::to_string(removed) +
                         " staging files that promotions killed before journaling them had left");
}

// A journal named for this folder's device and inode that another folder wrote (one deleted since, whose inode
// this folder took): nothing it names is this folder's, so it is set aside, named, and nothing is touched.
void BaselineTransaction::set_aside_journal(const std::string& written_for) {
  const fs::path aside = journal_.string() + ".stale";
  if (::rename(journal_.c_str(), aside.c_str()) != 0)
    throw TransactionError("the journal " + journal_.string() + " was written for " + written_for +
                           ", not this folder, and cannot be set aside: " + reason() + "; remove it");
  recovered_.push_back("set aside the journal of an interrupted promotion of " + written_for +
                       " (a folder gone since, whose inode this one took): nothing was touched; it is " +
                       aside.string());
}

}  // namespace bankgate::gate
