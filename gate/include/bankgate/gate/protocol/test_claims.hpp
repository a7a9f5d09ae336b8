#pragma once
// Which shard of a suite measures each test when several shards measure at once (bankgate run-suite, one per
// GPU). Every shard runs through the same list; the first to reach a test claims it with a file in a folder of
// the run, and the others pass it by. A shard that starts late, or gets the long tests, takes fewer: the GPUs
// finish together instead of each working through a fixed share.

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

namespace bankgate::gate {

class ClaimError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The claim file of a test ("Suite.Test"), named as its result file is (test_file_name).
std::filesystem::path claim_path(const std::filesystem::path& dir, const std::string& test);

// Claims `test` for `shard` unless another shard holds it. Returns true when `shard` holds it (now or from an
// earlier process of the same shard, after a crash). Atomic across processes: the file appears whole or not
// at all (link(2)), so exactly one shard wins. Throws ClaimError when the folder cannot be written.
bool claim_test(const std::filesystem::path& dir, const std::string& test, int shard);

// The shard holding `test`, or nullopt when no shard has reached it. Throws ClaimError on an unreadable claim.
std::optional<int> test_claimant(const std::filesystem::path& dir, const std::string& test);

}  // namespace bankgate::gate
