// The claim rules shards of a suite share tests by (bankgate/gate/test_claims.hpp): files in a folder, no GPU.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <bankgate/gate/protocol/test_claims.hpp>

namespace {

namespace fs = std::filesystem;
using namespace bankgate::gate;

class TestClaims : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("bankgate-claims-" + std::to_string(::getpid()) + "-" +
                                       ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
};

TEST_F(TestClaims, FirstShardToClaimHoldsTheTest) {
  EXPECT_EQ(test_claimant(dir, "Suite.Test"), std::nullopt);
  EXPECT_TRUE(claim_test(dir, "Suite.Test", 1));
  EXPECT_FALSE(claim_test(dir, "Suite.Test", 0));
  EXPECT_EQ(test_claimant(dir, "Suite.Test"), 1);
}

TEST_F(TestClaims, AShardClaimsItsOwnTestAgainAfterACrash) {
  ASSERT_TRUE(claim_test(dir, "Suite.Test", 2));
  EXPECT_TRUE(claim_test(dir, "Suite.Test", 2));
}

TEST_F(TestClaims, LeavesNoDraftBehind) {
  ASSERT_TRUE(claim_test(dir, "Suite.Test", 0));
  ASSERT_FALSE(claim_test(dir, "Suite.Test", 1));
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1);
}

TEST_F(TestClaims, ParameterisedNamesAreOneFile) {
  ASSERT_TRUE(claim_test(dir, "Sizes/Suite.Test/3", 0));
  EXPECT_TRUE(fs::is_regular_file(dir / "Sizes_Suite.Test_3.claim"));
  EXPECT_EQ(test_claimant(dir, "Sizes/Suite.Test/3"), 0);
}

TEST_F(TestClaims, AClaimThatIsNotAShardNumberIsAnError) {
  fs::create_directories(dir);
  std::ofstream(claim_path(dir, "Suite.Test")) << "shard one\n";
  EXPECT_THROW(test_claimant(dir, "Suite.Test"), ClaimError);
  EXPECT_THROW(claim_test(dir, "Suite.Test", 0), ClaimError);
}

TEST_F(TestClaims, AFolderThatCannotBeMadeIsAnError) {
  fs::create_directories(dir);
  std::ofstream(dir / "file") << "x";
  EXPECT_THROW(claim_test(dir / "file" / "claims", "Suite.Test", 0), ClaimError);
}

}  // namespace
