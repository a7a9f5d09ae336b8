#pragma once
// Writing several baseline files as one change: all of them, or none. A promotion locks its baselines folder
// before it reads anything, reads the baselines it merges into through the transaction, stages every new file
// beside its target, then commits by renames. Any failure restores the exact previous state; a run killed
// part-way leaves a journal, which marks the folder as half-written: every reader refuses it (see
// refuse_interrupted_promotion) until `bankgate recover` or the next promotion rolls it back.
//
// The folder is input from whoever wrote a pull request, the journal included: every path is resolved inside
// the folder (confined_folder.hpp), a journal may name only baseline files and their own staging and backup
// files, and files keep their permissions. A baseline that is a symbolic link is written through the link
// (the link stays) as long as it leads inside the folder; no file outside the folder is ever read or written.
// The lock is the folder's own (flock on the folder), so no lock file is left for `git add` to pick up.

#include <chrono>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <bankgate/gate/confined_folder.hpp>

namespace bankgate::gate {

class TransactionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The journal's name inside a baselines folder: present only while a promotion commits, or after one was killed.
inline constexpr const char* promote_journal_name = ".bankgate-promote.journal";

// Throws TransactionError with the recovery command when an interrupted promotion left `baselines`
// half-written. Every reader of baselines calls it before trusting what it reads.
void refuse_interrupted_promotion(const ConfinedFolder& baselines);

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
  struct Entry {
    std::filesystem::path target;  // as given
    std::filesystem::path real;    // where the bytes go, without links, relative to the root
    bool created = false;
  };
  void lock(std::chrono::seconds wait);
  void recover();
  void roll_back_journal();
  void remove_leftovers();
  bool roll_back(std::size_t renamed);  // false when a file could not be restored
  void remove_staged() noexcept;

  ConfinedFolder folder_;
  std::vector<Entry> entries_;
  std::vector<std::string> recovered_;
  bool committed_ = false;
};

}  // namespace bankgate::gate
