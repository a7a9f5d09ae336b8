// The run protocol's lists (gate/protocol/run_protocol.hpp): what `bankgate protocol` prints and scripts look names up
// in. A name given twice, or a result outside the results folder, would send two processes to one place.

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include <bankgate/gate/protocol/run_protocol.hpp>

namespace {

namespace protocol = bankgate::gate::protocol;

TEST(RunProtocol, EachVariableOnceUnderOneKey) {
  std::set<std::string_view> keys, names;
  for (const protocol::Name& variable : protocol::environment) {
    EXPECT_TRUE(keys.insert(variable.key).second) << "key given twice: " << variable.key;
    EXPECT_TRUE(names.insert(variable.name).second) << "variable given twice: " << variable.name;
    EXPECT_FALSE(variable.name.empty()) << variable.key;
  }
}

TEST(RunProtocol, EveryResultLiesInTheResultsFolderUnderItsOwnName) {
  const std::filesystem::path build = "/work/build";
  const std::filesystem::path root = protocol::results_root(build);
  std::set<std::string> keys;
  std::set<std::filesystem::path> paths;
  for (const auto& [key, path] : protocol::layout(build)) {
    EXPECT_TRUE(keys.insert(key).second) << "key given twice: " << key;
    EXPECT_TRUE(paths.insert(path).second) << "path given twice: " << path;
    const std::filesystem::path inside = path.lexically_relative(root);
    EXPECT_TRUE(!inside.empty() && *inside.begin() != "..") << key << ": " << path << " is not in " << root;
  }
}

TEST(RunProtocol, ALayoutWithoutBuildFolderIsRelativeToOne) {
  for (const auto& [key, path] : protocol::layout("")) EXPECT_TRUE(path.is_relative()) << key << ": " << path;
}

TEST(RunProtocol, SuiteFilesStayInTheirResultsFolder) {
  const std::filesystem::path results = "/work/build/bankgate/gtest-results";
  for (const std::filesystem::path& path :
       {protocol::suite_claims(results, "suite", "12-34"), protocol::running_file(results, "suite", 1),
        protocol::default_running_file(results)}) {
    const std::filesystem::path inside = path.lexically_relative(results);
    EXPECT_TRUE(!inside.empty() && *inside.begin() != "..") << path << " is not in " << results;
  }
  EXPECT_NE(protocol::running_file(results, "suite", 0), protocol::running_file(results, "suite", 1));
}

TEST(RunProtocol, EachPropertyOnce) {
  std::set<std::string_view> names;
  for (const char* name : protocol::properties) EXPECT_TRUE(names.insert(name).second) << "given twice: " << name;
}

TEST(RunProtocol, EachExitCodeMeansOneThing) {
  std::set<int> codes;
  for (const auto& [name, code] : protocol::exit_codes) EXPECT_TRUE(codes.insert(code).second) << name << " = " << code;
  EXPECT_EQ(protocol::exit_ok, 0);  // what every shell and ctest take for success
}

}  // namespace
