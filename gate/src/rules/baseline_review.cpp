#include <bankgate/gate/rules/baseline_review.hpp>

#include <bankgate/metrics.hpp>

namespace bankgate::gate {
std::vector<ReviewRow> review(const std::map<std::string, gate::SuiteFile>& candidates,
                              const std::map<std::string, gate::SuiteFile>& baselines) {
  std::vector<ReviewRow> rows;
  for (const auto& [suite, candidate] : candidates) {
    const auto b = baselines.find(suite);
    for (const auto& [test, measured] : candidate.tests) {
      const gate::TestRecord empty;
      const gate::TestRecord* baseline = &empty;
      if (b != baselines.end())
        if (const auto t = b->second.tests.find(test); t != b->second.tests.end()) baseline = &t->second;
      for (const gate::Finding& f : gate::compare(*baseline, measured))
        rows.push_back({suite, test, measured.correct, f});
    }
  }
  return rows;
}

gate::SuiteFile promote(const gate::SuiteFile* baseline, const gate::SuiteFile& candidate,
                        const std::vector<std::string>& tests, const gate::Provenance& provenance) {
  gate::SuiteFile result = baseline != nullptr ? *baseline : gate::SuiteFile{};
  result.schema_version = gate::current_schema_version;
  result.suite = candidate.suite;
  result.gpu = candidate.gpu;
  result.provenance = provenance;
  for (const auto& test : tests) {
    gate::TestRecord record = candidate.tests.at(test);
    for (gate::KernelRecord* kernel : record.kernels()) kernel->samples_ns.clear();
    // Tolerances travel with the candidate: they are set, with their reasons, in the test's code (KernelCase),
    // so a refresh writes what the test asks for now, and the baseline diff shows a changed tolerance.
    result.tests[test] = record;
  }
  return result;
}

}  // namespace bankgate::gate
