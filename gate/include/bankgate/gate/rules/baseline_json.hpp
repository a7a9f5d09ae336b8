#pragma once
// Baselines and candidates (baseline.hpp's SuiteFile) as JSON text: the reader, which validates everything a file
// holds, and the writer, both by the schema's tables (suite_file_table.hpp).

#include <bankgate/gate/rules/baseline.hpp>

#include <set>
#include <string>

namespace bankgate::gate {

// A file written by an older bankgate: readable by nothing but a refresh, which replaces it.
class OldSchemaError : public BaselineError {
 public:
  OldSchemaError(const std::string& message, int version) : BaselineError(message), version_(version) {}
  int version() const { return version_; }

 private:
  int version_;
};

// Parses and validates; every error names `origin` (the file) and the field. `known_metrics`, when given,
// rejects counter names outside it.
SuiteFile parse_suite_file(const std::string& text, const std::string& origin,
                           const std::set<std::string>* known_metrics = nullptr);

// Deterministic text: sorted keys, two-space indent, integral values without a fraction, trailing newline.
std::string serialize_suite_file(const SuiteFile& file, Samples samples);

}  // namespace bankgate::gate
