#pragma once
// The suite-file schema (baseline.hpp's records on disk) written once, as a table per JSON object: each field's key,
// JSON type, whether a file must hold it, its bounds and what it means. The reader's checks of which keys an object may
// hold (baseline_json.cpp), the writer and schemas/{suite-file,baseline,candidate}.schema.json (suite_file_schema.hpp)
// follow from it. A plain field (a string, flag or number of the record's own) names its member in its row, and is then
// read and written by the row alone: its type, bounds and choices are checked from the row, so adding one touches the
// struct and one row. What a table cannot say stays written out in the reader: the limits between fields (a tolerance
// against its counter's value, a summary's numbers against each other), names safe as folder names, known metric names,
// and the fields of a shape of their own (objects, maps, arrays, enumerations).

#include <bankgate/gate/rules/baseline.hpp>

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace bankgate::gate {

enum class JsonType {
  string,
  text,  // a string that says something: neither empty nor blank (reasons)
  boolean,
  integer,       // a whole number
  count,         // a whole number >= 0
  non_negative,  // a finite number >= 0
  object,        // the fields of the table `of` names
  array,         // elements of `of`: a table, or "count" or "non_negative"
  map,           // names the file chooses (tests, metrics, ratios) to values of `of`
};

// What a change of a field from the base branch's baseline to a pull request's does to the gate
// (baseline_changes.hpp). Every row says it, so that the review of a change compares every field the judgement
// reads: a field nobody classified fails closed (its change is named as a loosening), and a test holds every row
// to a class.
enum class Review {
  unclassified,  // named as a loosening whenever it changes: bankgate cannot tell what the change does
  informative,   // read by no verdict (plots, provenance, explanations): not compared
  judged,        // compared by baseline_changes.cpp's rules for what the judgement reads, each change named
  nested,        // an object, map or array of another table: its own fields are compared
  method,        // how a figure was taken: a change is named (the judgement refuses to compare across it)
};

// The reader's bound of a count: 32 bits, the range of the type rather than a bound of the field.
inline constexpr double max_count = 4294967295.0;

struct SchemaField {
  std::string_view key;
  JsonType type;
  bool required = true;
  bool candidate_only = false;  // written into candidates only, never into a baseline
  std::string_view of;
  std::optional<double> minimum;  // numbers: of the value; arrays: of the element count
  std::optional<double> maximum;
  std::string_view beyond;  // what the reader says of a number above maximum; else "must be between ..."
  std::span<const std::string_view> choices;  // strings: the only values allowed, where the table knows them
  std::string_view pattern;                   // strings: the regular expression every value matches
  std::string_view description;
  Review review = Review::unclassified;
};

// One JSON object of a suite file; `name` is what the JSON Schema calls it under $defs.
struct SchemaObject {
  std::string_view name;
  std::string_view description;
  std::vector<SchemaField> fields;
  bool has(std::string_view key) const;
};

// Where a plain field's value lives in a record (a row that names its member; the others are read by code of
// their own in baseline_json.cpp).
using FieldValue = std::variant<std::string*, bool*, int*, double*, std::uint32_t*, std::uint64_t*>;
struct PlainField {
  const SchemaField* row;
  FieldValue value;
};
// The plain fields of a record, in its table's order: what the reader fills, each by its row.
std::vector<PlainField> plain_fields(GpuKey& gpu);
std::vector<PlainField> plain_fields(Provenance& provenance);
std::vector<PlainField> plain_fields(KernelRecord& kernel);
std::vector<PlainField> plain_fields(TimingSummary& timing);
std::vector<PlainField> plain_fields(TimingTolerance& tolerance);
std::vector<PlainField> plain_fields(SourceLineFigures& line);

// The objects of a suite file. A test of one kernel is that kernel's record with "correct"; a test of several
// is "correct" and their records under "kernels".
enum class Part {
  suite_file,
  gpu,
  provenance,
  test_of_one_kernel,
  test_of_kernels,
  kernel,
  counter,
  tolerance,
  timing,
  timing_tolerance,
  line,
  expected
};
const SchemaObject& schema_object(Part part);
std::span<const SchemaObject> schema_objects();  // in Part's order

// The document serialize_suite_file prints, written by the tables.
nlohmann::json suite_file_document(const SuiteFile& file, Samples samples);
// One kernel's record as a baseline holds it, by the kernel table: what the review of a change walks.
nlohmann::json kernel_document(const KernelRecord& kernel);
// A number as the writer puts it: integral values as integers, so that counters read as counts, not 1024.0.
nlohmann::json json_number(double value);

}  // namespace bankgate::gate
