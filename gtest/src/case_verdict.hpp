#pragma once
// What gate() found of the running test, for its result record (result_files.hpp): how far it got, and the
// findings of its comparison with the baseline. The record's writer clears it as each test starts.

#include <vector>

#include <bankgate/gate/rules/comparison.hpp>

namespace bankgate::gtest {

struct CaseVerdict {
  bool measured = false;      // its candidate was written
  bool compared = false;      // it was compared with its baseline
  bool wrong_output = false;  // its output differed from the CPU reference
  std::vector<gate::Finding> findings;
};

CaseVerdict& running_case_verdict();

}  // namespace bankgate::gtest
