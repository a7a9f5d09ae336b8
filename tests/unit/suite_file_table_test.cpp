// The suite-file tables (suite_file_table.hpp) against what follows from them and what does not: the committed
// JSON Schemas must be their rendering, every committed file must write back byte for byte, the reader's checks of
// each field must match the field's row (type, required, bounds, choices), and every field is either plain (read
// and written by its row alone, so that adding one touches the struct and one row) or one of the few listed here
// with code of their own.

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/rules/suite_file_schema.hpp>
#include <bankgate/gate/rules/suite_file_table.hpp>
#include <bankgate/gate/store/input_file.hpp>

namespace {

namespace fs = std::filesystem;
using namespace bankgate::gate;
using nlohmann::json;

const fs::path source = BANKGATE_SOURCE_DIR;

// The first place where two JSON values differ, as a JSON pointer ("" where they differ at the top).
std::string first_difference(const json& a, const json& b, const std::string& at = "") {
  if (a.type() != b.type()) return at;
  if (a.is_object()) {
    for (const auto& [key, value] : a.items())
      if (!b.contains(key))
        return at + "/" + key;
      else if (std::string d = first_difference(value, b[key], at + "/" + key); d != "-")
        return d;
    for (const auto& [key, value] : b.items())
      if (!a.contains(key)) return at + "/" + key;
    return "-";
  }
  if (a.is_array()) {
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
      if (std::string d = first_difference(a[i], b[i], at + "/" + std::to_string(i)); d != "-") return d;
    return a.size() == b.size() ? "-" : at;
  }
  return a == b ? "-" : at;
}

TEST(SuiteFileTable, CommittedSchemasAreTheTablesRendering) {
  const auto rendered = suite_file_json_schemas();
  ASSERT_EQ(rendered.size(), 3u);
  for (const auto& [name, text] : rendered) {
    SCOPED_TRACE(name);
    const json committed = json::parse(read_input_file(source / "schemas" / name));
    const json tables = json::parse(text);
    const std::string where = first_difference(committed, tables);
    EXPECT_EQ(where, "-")
        << "schemas/" << name << " differs from the tables at " << where << ": committed "
        << (where == "-" ? json() : committed.value(json::json_pointer(where), json())).dump() << ", the tables give "
        << (where == "-" ? json() : tables.value(json::json_pointer(where), json())).dump()
        << ".\nEdit gate/src/rules/suite_file_table.cpp, not the schema, and regenerate the schemas with: "
           "cmake --build <build> --target suite_file_schemas && <build>/tests/unit/suite_file_schemas schemas";
  }
}

std::vector<fs::path> committed_suite_files() {
  std::vector<fs::path> files;
  for (const fs::path& folder :
       {source / "baselines", source / "examples" / "adopt" / "baselines", source / "tests" / "unit" / "fixtures"})
    for (const auto& entry : fs::recursive_directory_iterator(folder))
      if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  for (const auto& entry : fs::directory_iterator(source / "tests" / "fuzz" / "corpus"))
    if (entry.path().filename().string().rfind("valid", 0) == 0) files.push_back(entry.path());
  return files;
}

// A committed baseline read and written again is the same file: the tables write what the writer always wrote.
TEST(SuiteFileTable, CommittedBaselinesWriteBackByteForByte) {
  int baselines = 0;
  for (const fs::path& folder : {source / "baselines", source / "examples" / "adopt" / "baselines"})
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".json") continue;
      SCOPED_TRACE(entry.path().string());
      ++baselines;
      const std::string bytes = read_input_file(entry.path());
      EXPECT_EQ(serialize_suite_file(parse_suite_file(bytes, entry.path().string()), Samples::drop), bytes);
    }
  EXPECT_GE(baselines, 20);
}

// ---------------------------------------------------------------------------------------------------------------
// The reader against the rows: every field of every table is met in a committed file, and there a value of the
// wrong type, one beyond the row's bounds or outside its choices, and a required field's absence are each refused
// with the field's path named.

// An object of a committed file and the table it follows.
struct Site {
  Part part;
  json::json_pointer pointer;
  std::string path;  // as the reader's messages name it
};

const Part* part_named(std::string_view name) {
  static const std::vector<Part> parts = [] {
    std::vector<Part> all;
    for (std::size_t i = 0; i < schema_objects().size(); ++i) all.push_back(static_cast<Part>(i));
    return all;
  }();
  for (const Part& p : parts)
    if (schema_object(p).name == name) return &p;
  return nullptr;
}

std::string joined(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

void collect(const json& value, const Site& site, std::vector<Site>& sites);

void collect_value(const json& value, std::string_view of, const json::json_pointer& pointer, const std::string& path,
                   std::vector<Site>& sites) {
  if (of == "test")
    return collect(value, {value.contains("kernels") ? Part::test_of_kernels : Part::test_of_one_kernel, pointer, path},
                   sites);
  if (const Part* part = part_named(of)) collect(value, {*part, pointer, path}, sites);
}

void collect(const json& value, const Site& site, std::vector<Site>& sites) {
  sites.push_back(site);
  for (const SchemaField& f : schema_object(site.part).fields) {
    const std::string key(f.key);
    if (!value.contains(key)) continue;
    const json& member = value[key];
    const std::string path = joined(site.path, key);
    if (f.type == JsonType::object) collect_value(member, f.of, site.pointer / key, path, sites);
    if (f.type == JsonType::map)
      for (const auto& [name, item] : member.items())
        collect_value(item, f.of, site.pointer / key / name, joined(path, name), sites);
    if (f.type == JsonType::array)
      for (std::size_t i = 0; i < member.size(); ++i)
        collect_value(member[i], f.of, site.pointer / key / i, path + "[" + std::to_string(i) + "]", sites);
  }
}

// Refused with a message about `path` or an element of it, that says `problem` where one is given.
::testing::AssertionResult refused_naming(const json& document, const std::string& path, const std::string& edit,
                                          const std::string& problem = "") {
  try {
    parse_suite_file(document.dump(), "edited");
  } catch (const BaselineError& e) {
    const std::string message = e.what();
    if (message.find("field '" + path + (problem.empty() ? "" : "' " + problem)) != std::string::npos)
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << edit << " of '" << path
                                         << "' was refused, but the message does not name it: " << message;
  }
  return ::testing::AssertionFailure() << edit << " of '" << path << "' was read without a word";
}

json edited(const json& document, const json::json_pointer& at, json value) {
  json copy = document;
  copy[at] = std::move(value);
  return copy;
}

// Values of the wrong JSON type for a field of `type`.
std::vector<json> wrong_values(JsonType type) {
  switch (type) {
    case JsonType::string:
    case JsonType::text:
      return {7};
    case JsonType::boolean:
      return {"true", 1};
    case JsonType::integer:
      return {"1", 1.5, true};
    case JsonType::count:
      return {"1", 1.5, true, -1};
    case JsonType::non_negative:
      return {"1", -1, true};
    case JsonType::object:
    case JsonType::map:
      return {"x", json::array()};
    case JsonType::array:
      return {"x", json::object()};
  }
  return {};
}

// Values the row's bounds, choices and pattern exclude.
std::vector<json> out_of_bounds(const SchemaField& f, const json& present) {
  std::vector<json> values;
  if (f.type == JsonType::array) {
    if (present.empty()) return values;
    if (f.maximum) values.push_back(json(static_cast<std::size_t>(*f.maximum) + 1, present[0]));
    if (f.minimum) values.push_back(json(static_cast<std::size_t>(*f.minimum) - 1, present[0]));
    return values;
  }
  if (f.maximum) values.push_back(json_number(*f.maximum * 2 + 1));
  if (f.minimum) values.push_back(json_number(*f.minimum - 1));
  if (!f.choices.empty()) values.push_back("none of them");
  if (!f.pattern.empty()) values.push_back("../elsewhere");
  if (f.type == JsonType::text) values.push_back(" ");
  return values;
}

void check_field(const json& document, const Site& site, const SchemaField& f) {
  const std::string key(f.key);
  const json::json_pointer at = site.pointer / key;
  const std::string path = joined(site.path, key);
  for (const json& wrong : wrong_values(f.type))
    EXPECT_TRUE(refused_naming(edited(document, at, wrong), path, "the value " + wrong.dump()));
  for (const json& beyond : out_of_bounds(f, document[at]))
    EXPECT_TRUE(refused_naming(edited(document, at, beyond), path, "the value " + beyond.dump().substr(0, 40)));
  // Without "kernels" a test reads as one of a single kernel, which then misses "kernel".
  if (f.required && key != "kernels") {
    json without = document;
    without[site.pointer].erase(key);
    EXPECT_TRUE(refused_naming(without, path, "leaving out", "is missing"));
  }
}

TEST(SuiteFileTable, TheReaderChecksEachFieldAsItsRowSays) {
  std::set<std::pair<Part, std::string>> checked;
  std::set<Part> closed;
  for (const fs::path& file : committed_suite_files()) {
    SCOPED_TRACE(file.string());
    const json document = json::parse(read_input_file(file));
    std::vector<Site> sites;
    collect(document, {Part::suite_file, json::json_pointer(), ""}, sites);
    for (const Site& site : sites) {
      if (closed.insert(site.part).second) {
        EXPECT_TRUE(refused_naming(edited(document, site.pointer / "misspelt_key", 1),
                                   joined(site.path, "misspelt_key"), "a key outside the table",
                                   "is not part of schema"));
      }
      for (const SchemaField& f : schema_object(site.part).fields)
        if (document[site.pointer].contains(std::string(f.key)) &&
            checked.insert({site.part, std::string(f.key)}).second)
          check_field(document, site, f);
    }
  }
  for (const SchemaObject& object : schema_objects())
    for (const SchemaField& f : object.fields)
      EXPECT_TRUE(checked.count({*part_named(object.name), std::string(f.key)}))
          << object.name << "." << f.key << " is in no committed file: the reader's check of it is untested";
}

// What the writer leaves out is what a file may leave out: a record with nothing optional set is written with
// every required field and no other.
TEST(SuiteFileTable, TheWriterWritesEveryRequiredFieldAndNothingOutsideTheTables) {
  SuiteFile file;
  file.suite = "Bare";
  file.gpu = {"sm_90", "nvidia-h200"};
  TestRecord& bare = file.tests["bare"];
  bare.kernel = "k";
  bare.counters["c"] = {};
  const json document = json::parse(serialize_suite_file(file, Samples::keep));
  std::vector<Site> sites;
  collect(document, {Part::suite_file, json::json_pointer(), ""}, sites);
  ASSERT_EQ(sites.size(), 6u);  // the file, gpu, provenance, the test, its counter and the counter's tolerance
  for (const Site& site : sites) {
    SCOPED_TRACE(site.path);
    const SchemaObject& object = schema_object(site.part);
    for (const auto& [key, value] : document[site.pointer].items()) EXPECT_TRUE(object.has(key)) << key;
    for (const SchemaField& f : object.fields)
      EXPECT_EQ(document[site.pointer].contains(std::string(f.key)), f.required || f.key == "derived") << f.key;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Plain fields: a row that names its member is all the reader and the writer need.

// The fields read by code of their own in baseline_json.cpp (objects, maps, arrays, an enumeration, names checked
// as folder names, reasons with their own words), by object. Every other field must be plain: a field added to a
// table without its member fails here until it is, or until its reader is written and it is listed.
const std::map<std::string_view, std::set<std::string_view>> own_readers = {
    {"suite_file", {"schema_version", "suite", "gpu", "provenance", "tests", "baselines"}},
    {"test_of_one_kernel", {"correct", "counters", "derived", "expected", "timing", "samples_ns", "lines"}},
    {"test_of_kernels", {"correct", "kernels"}},
    {"kernel", {"counters", "derived", "expected", "timing", "samples_ns", "lines"}},
    {"counter", {"value", "tolerance"}},
    {"tolerance", {"kind", "amount", "reason"}},
    {"timing", {"tolerance", "quantiles_ns"}},
    {"timing_tolerance", {"reason", "modes_ns"}},
    {"expected", {"ratios", "why"}},
};

std::set<std::string_view> keys_of(const std::vector<PlainField>& fields) {
  std::set<std::string_view> keys;
  for (const PlainField& f : fields) keys.insert(f.row->key);
  return keys;
}

// The plain fields of each object, from records of each kind.
std::map<std::string_view, std::set<std::string_view>> plain_keys() {
  GpuKey gpu;
  Provenance provenance;
  KernelRecord kernel;
  TimingSummary timing;
  TimingTolerance tolerance;
  SourceLineFigures line;
  return {{"gpu", keys_of(plain_fields(gpu))},       {"provenance", keys_of(plain_fields(provenance))},
          {"kernel", keys_of(plain_fields(kernel))}, {"test_of_one_kernel", keys_of(plain_fields(kernel))},
          {"timing", keys_of(plain_fields(timing))}, {"timing_tolerance", keys_of(plain_fields(tolerance))},
          {"line", keys_of(plain_fields(line))}};
}

TEST(SuiteFileTable, EveryFieldIsPlainOrOneOfTheFewWithAReaderOfItsOwn) {
  const auto plain = plain_keys();
  for (const SchemaObject& object : schema_objects())
    for (const SchemaField& f : object.fields) {
      const auto p = plain.find(object.name);
      const auto o = own_readers.find(object.name);
      const bool is_plain = p != plain.end() && p->second.count(f.key);
      const bool has_own = o != own_readers.end() && o->second.count(f.key);
      EXPECT_NE(is_plain, has_own) << object.name << "." << f.key
                                   << (is_plain ? " is plain, yet listed with a reader of its own"
                                                : " names no member in its row (make it plain) and is not listed "
                                                  "with a reader of its own in baseline_json.cpp");
    }
}

// A value of a plain field as the document would hold it.
json as_json(const FieldValue& value) {
  return std::visit([](auto* v) -> json { return *v; }, value);
}

// Each plain field of `fields` holds what the document's object at `at` says, or its default where that leaves it
// out: the row alone read it. Returns how many were compared.
int compare_plain(const json& object, std::vector<PlainField> fields, const std::string& where) {
  int compared = 0;
  for (const PlainField& f : fields) {
    const std::string key(f.row->key);
    SCOPED_TRACE(where + "." + key);
    if (!object.contains(key)) continue;
    EXPECT_EQ(as_json(f.value), object[key]);
    ++compared;
  }
  return compared;
}

TEST(SuiteFileTable, PlainFieldsAreReadIntoTheMembersTheirRowsName) {
  const fs::path path = source / "baselines" / "sm_90" / "nvidia-h200" / "AsyncCopy.json";
  const json document = json::parse(read_input_file(path));
  SuiteFile file = parse_suite_file(read_input_file(path), path.string());
  int compared = compare_plain(document["gpu"], plain_fields(file.gpu), "gpu") +
                 compare_plain(document["provenance"], plain_fields(file.provenance), "provenance");
  bool floor_seen = false, line_seen = false;
  for (auto& [name, test] : file.tests) {
    const json& t = document["tests"][name];
    if (t.contains("kernels")) continue;
    compared += compare_plain(t, plain_fields(static_cast<KernelRecord&>(test)), name);
    ASSERT_TRUE(test.timing);
    compared += compare_plain(t["timing"], plain_fields(*test.timing), name + ".timing");
    compared += compare_plain(t["timing"]["tolerance"], plain_fields(test.timing->tolerance), name + ".tolerance");
    floor_seen = floor_seen || t["timing"]["tolerance"].contains("compare_floor");
    for (std::size_t i = 0; i < test.lines.size(); ++i, line_seen = true)
      compared += compare_plain(t["lines"][i], plain_fields(test.lines[i]), name + ".lines");
  }
  EXPECT_TRUE(floor_seen && line_seen) << path << " no longer holds a compare_floor and per-line figures";
  EXPECT_GT(compared, 40);
}

}  // namespace
