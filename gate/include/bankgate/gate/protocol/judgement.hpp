#pragma once
// The one judgement of a test, made in bankgate's own process (the test's ctest entry, `verdict`, and the
// summary), never in the suite process. The suite process runs the pull request's code: its result record and
// its candidate say what it measured and how GoogleTest ended, and are taken as a report, never as a verdict.
// The outcome comes from the measurement against the baseline bankgate read itself; the record can only make
// it worse (a failure the suite saw is kept), never better, and a record that contradicts itself or names
// another test is refused.

#include <optional>
#include <string>
#include <vector>

#include <bankgate/gate/protocol/test_result.hpp>
#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/comparison.hpp>

namespace bankgate::gate {

// What bankgate has of one planned test: its record (none where its process never wrote one), the measurement
// its candidate holds and the baseline read from the baselines folder (none where absent).
struct JudgementInputs {
  std::string name;                          // "Suite.test", as the plan names it
  const TestResultRecord* record = nullptr;  // as read from <Suite.test>.result.json
  const TestRecord* measured = nullptr;
  const TestRecord* baseline = nullptr;
  bool fail_on_speedup = false;
  // Why the test's records were refused before any was read as its report (two files claim the test): the
  // record is then ignored like an inconsistent one.
  std::string refused;
};

struct Judgement {
  Outcome outcome = Outcome::not_measured;
  std::vector<Finding> findings;  // bankgate's own comparison; the record's where bankgate had nothing to compare
  // bankgate's comparison of the measurement with its baseline (with none where there is none: every figure not in
  // the baseline), passes included, for record's review table; empty where nothing was measured. The one
  // comparison of the measurement on any path.
  std::vector<Finding> comparison;
  bool wrong_output = false;
  // Why bankgate's outcome is not the record's, or why the record was refused; empty where they agree.
  std::vector<std::string> notes;
};

// Why `record` cannot be taken as the report of `name`: it names another test, or its outcome contradicts its
// own findings (passed beside a failing finding or a wrong output), or a skip carries findings. nullopt: none.
std::optional<std::string> record_inconsistency(const TestResultRecord& record, const std::string& name,
                                                bool fail_on_speedup);

Judgement judge(const JudgementInputs& in);

}  // namespace bankgate::gate
