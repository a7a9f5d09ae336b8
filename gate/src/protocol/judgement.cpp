#include <bankgate/gate/protocol/judgement.hpp>

#include <algorithm>

#include <bankgate/gate/rules/expectation_check.hpp>

namespace bankgate::gate {
namespace {

bool any_failure(const std::vector<Finding>& findings, bool fail_on_speedup) {
  return std::any_of(findings.begin(), findings.end(),
                     [&](const Finding& f) { return is_failure(f.verdict, fail_on_speedup); });
}

// bankgate's own judgement of a measurement against its baseline: the comparison, the output check the
// measurement carries, and the ratios its source states.
struct OwnJudgement {
  std::vector<Finding> findings;
  bool wrong_output = false;
  bool fails = false;
};

OwnJudgement judge_measurement(const TestRecord& measured, const TestRecord& baseline, bool fail_on_speedup) {
  OwnJudgement own{compare(baseline, measured), !measured.correct, false};
  bool unmet = false;
  for (const KernelRecord* kernel : measured.kernels()) unmet = unmet || !unmet_expectations(*kernel).empty();
  own.fails = own.wrong_output || unmet || any_failure(own.findings, fail_on_speedup);
  return own;
}

// The outcome where bankgate could not judge the measurement itself: the record's, except that a pass it cannot
// check is no pass.
Outcome unjudged_outcome(const TestResultRecord& record, std::vector<std::string>& notes) {
  if (record.outcome != Outcome::passed) return record.outcome;
  notes.push_back(
      "its result record says it passed, but bankgate has no measurement and baseline of it to judge: not measured");
  return Outcome::not_measured;
}

}  // namespace

std::optional<std::string> record_inconsistency(const TestResultRecord& record, const std::string& name,
                                                bool fail_on_speedup) {
  const std::string named = record.suite + "." + record.test;
  if (named != name) return "it is the record of " + named + ", not of " + name;
  if (record.outcome == Outcome::passed && record.wrong_output)
    return "it says the test passed beside its own wrong output";
  if (record.outcome == Outcome::passed && any_failure(record.findings, fail_on_speedup))
    return "it says the test passed beside its own failing finding";
  if (record.outcome == Outcome::skipped && !record.findings.empty())
    return "it says the test was skipped, yet holds findings of a comparison";
  return std::nullopt;
}

Judgement judge(const JudgementInputs& in) {
  Judgement j;
  const bool judged = in.measured && in.baseline;
  OwnJudgement own;
  static const TestRecord no_baseline;
  if (in.measured) own = judge_measurement(*in.measured, judged ? *in.baseline : no_baseline, in.fail_on_speedup);
  j.comparison = own.findings;
  j.findings = judged ? own.findings : in.record ? in.record->findings : std::vector<Finding>{};
  j.wrong_output = own.wrong_output || (in.record && in.record->wrong_output);
  if (!in.record) {
    j.notes.push_back(in.refused.empty() ? "it was planned, but left no result record: it was not measured"
                                         : "its result records are refused: " + in.refused);
    j.outcome = judged && own.fails ? Outcome::regressed : Outcome::not_measured;
    return j;
  }
  std::optional<std::string> why = record_inconsistency(*in.record, in.name, in.fail_on_speedup);
  if (!in.refused.empty()) why = in.refused;
  if (why) {
    j.notes.push_back("its result record is refused: " + *why);
    j.findings = judged ? own.findings : std::vector<Finding>{};
    j.outcome = judged && own.fails ? Outcome::regressed : Outcome::not_measured;
    return j;
  }
  // A failure the suite process saw (an expectation, a raised floor, its own comparison) is kept: the record can
  // only make the outcome worse.
  const Outcome claimed = in.record->outcome;
  if (judged && own.fails) {
    j.outcome = Outcome::regressed;
    if (claimed != Outcome::regressed)
      j.notes.push_back("its result record says " + to_string(claimed) +
                        ", but bankgate's comparison with its baseline fails it");
  } else if (judged && claimed == Outcome::passed) {
    j.outcome = Outcome::passed;
  } else {
    j.outcome = judged ? claimed : unjudged_outcome(*in.record, j.notes);
  }
  return j;
}

}  // namespace bankgate::gate
