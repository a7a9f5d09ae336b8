#pragma once
// Writing several baseline files as one change: all of them, or none. A promotion locks its baselines folder
// before it reads anything, reads the baselines it merges into through the transaction, stages every new file
// beside its target, then commits by renames. Any failure restores the exact previous state; a run killed
// part-way leaves a journal, which marks the folder as half-written: every reader on this machine refuses it
// (see refuse_interrupted_promotion) until `bankgate recover` or the next promotion rolls it back.
//
// The folder is input from whoever wrote a pull request, so nothing in it can start a recovery or take part in
// one. The journal lives outside it, in this user's state folder (journal_folder()), where a pull request
// cannot place one; it is read only when it is a regular file this user owns that nobody else may write. It
// records, for every file the promotion touched, the identity (device, inode, size, time) of the staging file
// it wrote and of the baseline its backup keeps (a hard link: the very same file). Recovery deletes only a file
// that is the one this promotion wrote and restores only a backup that is the very file it replaced; anything
// else of that name (a file a pull request added, a baseline git checked out since) is left alone and named.
// Staging and backup files carry a random suffix, so no file of the folder can be taken for one.
// Every path is resolved inside the folder (confined_folder.hpp); files keep their permissions. A baseline that
// is a symbolic link is written through the link (the link stays) as long as it leads inside the folder; no file
// outside the folder is ever read or written. The lock is the folder's own (flock on the folder), so no lock
// file is left for `git add` to pick up.

#include <chrono>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <bankgate/gate/store/confined_folder.hpp>

namespace bankgate::gate {

// Tests only: stops a promotion at a chosen step (baseline_transaction.cpp's fault_point says how). Listed with
// the run protocol's names (protocol/run_protocol.hpp), read only here: it is no setting.
inline constexpr char fault_inject_variable[] = "BANKGATE_FAULT_INJECT";

class TransactionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where this user's promotion journals are: $XDG_STATE_HOME/bankgate/journals, else
// $HOME/.local/state/bankgate/journals, else /tmp/bankgate-state-<uid>/journals. One journal per baselines
// folder, named by the folder's device and inode (however its path is spelt).
std::filesystem::path journal_folder();

// The journal of an interrupted promotion of `baselines` on this machine; nullopt where there is none.
std::optional<std::filesystem::path> interrupted_promotion(const ConfinedFolder& baselines);

// Throws BaselineError with the recovery command when an interrupted promotion left `baselines` half-written.
// Every reader of baselines calls it before trusting what it reads.
void refuse_interrupted_promotion(const ConfinedFolder& baselines);

// Staging files a promotion killed before it journaled them left in the folder (name.json.bankgate-staged-...),
// relative to it: no journal names them, so the next promotion (or `bankgate recover`) removes them and
// check-baselines names them.
std::vector<std::filesystem::path> leftover_staging_files(const ConfinedFolder& baselines);

// The command that restores the baselines folder `root` after an interrupted promotion, quoted for a POSIX shell
// (the folder's name comes from whoever made it): the one spelling every message advises.
std::string recover_command(const std::filesystem::path& root);

class BaselineTransaction {
 public:
  // Locks `root` (created where needed), waiting up to `wait` for another promotion to finish, then recovers
  // what an interrupted one left. Throws TransactionError naming the folder or the file that could not be handled.
  explicit BaselineTransaction(const std::filesystem::path& root, std::chrono::seconds wait = std::chrono::seconds(60));
  BaselineTransaction(const BaselineTransaction&) = delete;
  BaselineTransaction& operator=(const BaselineTransaction&) = delete;
  ~BaselineTransaction();  // removes staged files of a transaction that was not committed; releases the lock

  // What recovery found and did, one line each (empty when the folder was clean).
  const std::vector<std::string>& recovered() const { return recovered_; }

  // The locked folder, for reading the baselines the transaction merges into.
  const ConfinedFolder& folder() const { return folder_; }

  // Writes `text` to a staging file beside `target` (a path inside the root, relative to it). Nothing
  // visible changes yet.
  void stage(const std::filesystem::path& target, const std::string& text);

  struct Change {
    std::filesystem::path path;  // as staged, under the root (the link, where the target is one)
    bool created = false;        // true: a new file; false: an existing file replaced
  };
  // Makes every staged file visible, or none: on failure the previous state is restored and the error says
  // that nothing was changed.
  std::vector<Change> commit();

  const std::filesystem::path& root() const { return folder_.root(); }

 private:
  void remove_leftover_staging();
  void set_aside_journal(const std::string& written_for);
  // Which file an entry is: equal only for the very same file (a hard link of it included), never for a copy.
  struct FileId {
    unsigned long long device = 0, inode = 0, size = 0;
    long long mtime_ns = 0;
    bool operator==(const FileId&) const = default;
  };
  struct Entry {
    std::filesystem::path target;  // as given
    std::filesystem::path real;    // where the bytes go, without links, relative to the root
    bool created = false;
    std::string staged, backup;     // their names in the folder of `real`
    FileId staged_id, original_id;  // what this promotion wrote; the baseline it replaced (kept as the backup)
  };
  enum class Phase { staging, committing, committed };
  void lock(std::chrono::seconds wait);
  void recover();
  void write_journal(Phase phase) const;
  void remove_journal() const;
  // Puts the folder back as it was before (phase committing), or removes what is left over (staging: the
  // staged files; committed: the backups). Touches only files that are what the entries say.
  struct Undone {
    std::size_t restored = 0;
    std::vector<std::string> problems;  // what could not be restored: the journal stays
    std::vector<std::string> notes;     // files changed since, left as they are
  };
  Undone undo(const std::vector<Entry>& entries, Phase phase) const;
  void remove_staged() noexcept;

  ConfinedFolder folder_;
  std::filesystem::path journal_;
  std::vector<Entry> entries_;
  std::vector<std::string> recovered_;
  bool committed_ = false;
};

}  // namespace bankgate::gate
