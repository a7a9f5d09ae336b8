#pragma once
// Writing several baseline files as one change: all of them, or none. A promotion holds an exclusive lock on
// its baselines folder, stages every new file beside its target on the same file system, then commits by
// renames. Any failure restores the exact previous state; a run killed part-way leaves a journal that the
// next one finds and rolls back, and leftover staging files are removed by the next run and named.
//
// Files keep their permissions, and a baseline that is a symbolic link is written through the link (the link
// stays) as long as it points inside the baselines folder; no file outside that folder is ever written.

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace bankgate::gate {

class TransactionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class BaselineTransaction {
 public:
  // Takes the lock of `root` (created where needed), waiting up to `wait` for another promotion to finish,
  // then recovers what an interrupted one left. Throws TransactionError naming the folder, the holder of the
  // lock, or the file that could not be handled.
  explicit BaselineTransaction(std::filesystem::path root, std::chrono::seconds wait = std::chrono::seconds(60));
  BaselineTransaction(const BaselineTransaction&) = delete;
  BaselineTransaction& operator=(const BaselineTransaction&) = delete;
  ~BaselineTransaction();  // removes staged files of a transaction that was not committed; releases the lock

  // What recovery found and did, one line each (empty when the folder was clean).
  const std::vector<std::string>& recovered() const { return recovered_; }

  // Writes `text` to a staging file beside `target` (a path inside the root). Nothing visible changes yet.
  void stage(const std::filesystem::path& target, const std::string& text);

  struct Change {
    std::filesystem::path path;  // as staged (the link, where the target is one)
    bool created = false;        // true: a new file; false: an existing file replaced
  };
  // Makes every staged file visible, or none: on failure the previous state is restored and the error says
  // that nothing was changed.
  std::vector<Change> commit();

  const std::filesystem::path& root() const { return root_; }

 private:
  struct Entry {
    std::filesystem::path target;  // as given
    std::filesystem::path real;    // where the bytes go (through a link)
    std::filesystem::path staged, backup;
    bool created = false;
  };
  void recover();
  bool roll_back(std::size_t renamed);  // false when a file could not be restored
  void remove_staged() noexcept;

  std::filesystem::path root_;
  int lock_fd_ = -1;
  std::vector<Entry> entries_;
  std::vector<std::string> recovered_;
  bool committed_ = false;
};

}  // namespace bankgate::gate
