#include <bankgate/gate/protocol/test_claims.hpp>
#include <bankgate/gate/protocol/test_result.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

namespace bankgate::gate {

std::filesystem::path claim_path(const std::filesystem::path& dir, const std::string& test) {
  return dir / (test_file_name(test) + ".claim");
}

bool claim_test(const std::filesystem::path& dir, const std::string& test, int shard) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::filesystem::path path = claim_path(dir, test);
  // The claim is written under a name of this shard's own, then linked into place: link(2) fails when the
  // name exists, so a claim file never appears half-written and two shards cannot both win.
  const std::filesystem::path draft =
      path.string() + ".shard" + std::to_string(shard) + "." + std::to_string(::getpid());
  {
    std::ofstream out(draft, std::ios::trunc);
    out << shard << "\n";
    if (!out.flush()) throw ClaimError("cannot write " + draft.string() + ": " + std::strerror(errno));
  }
  const int linked = ::link(draft.c_str(), path.c_str());
  const int link_errno = errno;
  std::filesystem::remove(draft, ec);
  if (linked == 0) return true;
  if (link_errno != EEXIST)
    throw ClaimError("cannot claim " + test + " in " + dir.string() + ": " + std::strerror(link_errno));
  return test_claimant(dir, test) == shard;
}

std::optional<int> test_claimant(const std::filesystem::path& dir, const std::string& test) {
  const std::filesystem::path path = claim_path(dir, test);
  std::ifstream in(path);
  if (!in) return std::nullopt;
  int shard = -1;
  if (!(in >> shard) || shard < 0)
    throw ClaimError(path.string() + " is not a claim (a shard number); remove the folder " + dir.string() +
                     " and rerun");
  return shard;
}

}  // namespace bankgate::gate
