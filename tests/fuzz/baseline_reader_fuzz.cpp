// libFuzzer target for the baseline reader: parse_suite_file must turn any bytes into a SuiteFile or a
// BaselineError. Any other exception escaping, a crash or a sanitizer report is a finding.
//
// Built only with -DBANKGATE_BUILD_FUZZERS=ON and Clang; run through ci/fuzz.sh.

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/metrics.hpp>

namespace {

// The collector's metric names, as the bankgate command passes them when it reads committed baselines.
const std::set<std::string>& known_metrics() {
  static const std::set<std::string> names = [] {
    const auto list = bankgate::default_metric_names();
    return std::set<std::string>(list.begin(), list.end());
  }();
  return names;
}

void parse_once(const std::string& text, const std::set<std::string>* known) {
  try {
    const bankgate::gate::SuiteFile file = bankgate::gate::parse_suite_file(text, "fuzz input", known);
    // Touch the result so the parse cannot be optimised away and a half-built file would be noticed by ASan.
    volatile std::size_t sink = file.tests.size() + file.suite.size();
    (void)sink;
  } catch (const bankgate::gate::BaselineError&) {
    // The documented way to reject input.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  parse_once(text, nullptr);
  parse_once(text, &known_metrics());
  return 0;
}
