// The suite-file tables (suite_file_table.hpp): a row per field, with the member it reads and writes (a plain
// field) or the function that writes it from the record.
#include <bankgate/gate/rules/suite_file_table.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <variant>

namespace bankgate::gate {
namespace {

using nlohmann::json;
using T = JsonType;
using R = Review;

// A member of `Record` that a plain row names, read and written by the row alone.
template <class Record>
using Member = std::variant<std::monostate, std::string Record::*, bool Record::*, int Record::*, double Record::*,
                            std::uint32_t Record::*, std::uint64_t Record::*>;
static_assert(std::is_same_v<std::size_t, std::uint64_t>, "a timing's counts (std::size_t) are read as 64-bit counts");

// A field of `Record`: a plain one's member, or how one of a shape of its own is written (its reader is
// baseline_json.cpp's). A null value leaves the field out of the file.
template <class Record>
struct Column {
  SchemaField field;
  json (*write)(const Record&, Samples) = nullptr;
  Member<Record> member{};
};

template <class Record, class Value>
constexpr Column<Record> plain(SchemaField field, Value Record::*member) {
  return {field, nullptr, member};
}

// A plain field as written: numbers as json_number() puts them; an optional one left out at its type's default.
template <class Record>
json write_plain(const Record& record, const Column<Record>& c) {
  return std::visit(
      [&](auto member) -> json {
        if constexpr (std::is_same_v<decltype(member), std::monostate>) {
          return json();
        } else {
          const auto& value = record.*member;
          if (!c.field.required && value == std::decay_t<decltype(value)>{}) return json();
          if constexpr (std::is_same_v<std::decay_t<decltype(value)>, double>)
            return json_number(value);
          else
            return value;
        }
      },
      c.member);
}
constexpr std::string_view gpu_name_pattern = "^[A-Za-z0-9_-]+$";
constexpr std::string_view test_name_pattern = "^[A-Za-z0-9_]+(/[A-Za-z0-9_]+)*$";
constexpr std::string_view tolerance_kinds[] = {"exact", "absolute", "relative"};
constexpr std::string_view l2_states[] = {"warm", "cold"};

json written(const GpuKey& gpu, Samples samples);
json written(const Provenance& provenance, Samples samples);
json written(const TestRecord& test, Samples samples);
json written(const KernelRecord& kernel, Samples samples);
json written(const CounterValue& counter, Samples samples);
json written(const Tolerance& tolerance, Samples samples);
json written(const TimingSummary& timing, Samples samples);
json written(const TimingTolerance& tolerance, Samples samples);
json written(const SourceLineFigures& line, Samples samples);
json written(const ExpectedRatios& expected, Samples samples);

json text_unless_empty(const std::string& text) { return text.empty() ? json() : json(text); }

json numbers(const std::vector<double>& values) {
  json list = json::array();
  for (double v : values) list.push_back(json_number(v));
  return list;
}

template <class Value>
json map_of(const std::map<std::string, Value>& values, Samples samples) {
  json object = json::object();
  for (const auto& [name, value] : values) {
    if constexpr (std::is_same_v<Value, double>)
      object[name] = json_number(value);
    else
      object[name] = written(value, samples);
  }
  return object;
}

// The tables keep one row per line, as they are read.
// clang-format off
constexpr Column<SuiteFile> suite_file_columns[] = {
    {{.key = "schema_version", .type = T::integer, .minimum = current_schema_version, .maximum = current_schema_version,
      .description = "the schema this file follows; a file of an older one is recorded again (bankgate refresh)", .review = R::informative},
     [](const SuiteFile& f, Samples) -> json { return f.schema_version; }},
    {{.key = "suite", .type = T::string, .pattern = test_name_pattern, .description = "the GoogleTest suite; names the file", .review = R::informative},
     [](const SuiteFile& f, Samples) -> json { return f.suite; }},
    {{.key = "gpu", .type = T::object, .of = "gpu", .description = "the GPU model it was measured on", .review = R::informative},
     [](const SuiteFile& f, Samples s) { return written(f.gpu, s); }},
    {{.key = "provenance", .type = T::object, .of = "provenance", .description = "the machine, build and command that measured it", .review = R::informative},
     [](const SuiteFile& f, Samples s) { return written(f.provenance, s); }},
    {{.key = "tests", .type = T::map, .of = "test", .description = "each test's record, by test name", .review = R::nested},
     [](const SuiteFile& f, Samples s) { return map_of(f.tests, s); }},
    {{.key = "baselines", .type = T::string, .required = false, .candidate_only = true,
      .description = "the baselines folder the suite that wrote it is gated against", .review = R::informative},
     [](const SuiteFile& f, Samples) { return text_unless_empty(f.baseline_dir.string()); }},
};

constexpr Column<GpuKey> gpu_columns[] = {
    plain({.key = "arch", .type = T::string, .pattern = gpu_name_pattern, .description = "the architecture, e.g. sm_90; names a folder", .review = R::informative}, &GpuKey::arch),
    plain({.key = "model", .type = T::string, .pattern = gpu_name_pattern, .description = "the model, e.g. nvidia-h200; names a folder", .review = R::informative}, &GpuKey::model),
};

constexpr Column<Provenance> provenance_columns[] = {
    plain({.key = "gpu_name", .type = T::string, .description = "the GPU's name as the driver gives it", .review = R::informative}, &Provenance::gpu_name),
    plain({.key = "chip", .type = T::string, .description = "its chip, e.g. GH100", .review = R::informative}, &Provenance::chip),
    plain({.key = "compute_capability", .type = T::string, .description = "e.g. 9.0", .review = R::informative}, &Provenance::compute_capability),
    plain({.key = "multiprocessor_count", .type = T::integer, .description = "its streaming multiprocessors", .review = R::informative}, &Provenance::multiprocessor_count),
    plain({.key = "driver_version", .type = T::integer, .description = "the CUDA API level the driver offers, e.g. 13000", .review = R::informative}, &Provenance::driver_version),
    plain({.key = "driver_release", .type = T::string, .description = "the driver's release, e.g. 580.159.04; empty where unknown", .review = R::informative}, &Provenance::driver_release),
    plain({.key = "cuda_runtime_version", .type = T::integer, .description = "the CUDA runtime's version, e.g. 13000", .review = R::informative}, &Provenance::cuda_runtime_version),
    plain({.key = "cupti_version", .type = T::count, .maximum = max_count, .description = "CUPTI's API version", .review = R::informative}, &Provenance::cupti_version),
    plain({.key = "git_commit", .type = T::string, .description = "the measured build's commit", .review = R::informative}, &Provenance::git_commit),
    plain({.key = "git_dirty", .type = T::boolean, .description = "the measured build had uncommitted changes", .review = R::informative}, &Provenance::git_dirty),
    plain({.key = "date", .type = T::string, .description = "when it was measured: UTC, ISO 8601", .review = R::informative}, &Provenance::date),
    plain({.key = "command", .type = T::string, .description = "what wrote the file", .review = R::informative}, &Provenance::command),
    plain({.key = "bankgate_version", .type = T::string, .required = false,
      .description = "the bankgate that wrote it (files of 0.4 and later)", .review = R::informative}, &Provenance::bankgate_version),
};

// A test of one kernel: the kernel's columns and this one.
constexpr Column<TestRecord> correct_columns[] = {
    {{.key = "correct", .type = T::boolean, .description = "the output matched the CPU reference", .review = R::informative},
     [](const TestRecord& r, Samples) -> json { return r.correct; }},
};

constexpr Column<TestRecord> test_of_kernels_columns[] = {
    correct_columns[0],
    {{.key = "kernels", .type = T::array, .of = "kernel", .minimum = 2,
      .description = "each kernel's record, in launch order (a test of one kernel is written without it)", .review = R::nested},
     [](const TestRecord& r, Samples s) {
       json kernels = json::array();
       for (const KernelRecord* k : r.kernels()) kernels.push_back(written(*k, s));
       return kernels;
     }},
};

constexpr Column<KernelRecord> kernel_columns[] = {
    plain({.key = "kernel", .type = T::string, .description = "its function name, as results name it", .review = R::judged}, &KernelRecord::kernel),
    {{.key = "counters", .type = T::map, .of = "counter", .description = "each gated counter, by metric name", .review = R::judged},
     [](const KernelRecord& r, Samples s) { return map_of(r.counters, s); }},
    {{.key = "derived", .type = T::map, .required = false, .of = "non_negative",
      .description = "figures the counters give (ratios, excess per kind); informative, not gated", .review = R::informative},
     [](const KernelRecord& r, Samples s) { return map_of(r.derived, s); }},
    {{.key = "expected", .type = T::object, .required = false, .of = "expected",
      .description = "the ratios its source says it should show", .review = R::informative},
     [](const KernelRecord& r, Samples s) { return r.expected ? written(*r.expected, s) : json(); }},
    {{.key = "timing", .type = T::object, .required = false, .of = "timing", .description = "its duration distribution", .review = R::judged},
     [](const KernelRecord& r, Samples s) { return r.timing ? written(*r.timing, s) : json(); }},
    {{.key = "samples_ns", .type = T::array, .required = false, .candidate_only = true, .of = "non_negative",
      .maximum = static_cast<double>(limits::max_samples_per_test),
      .description = "the raw durations the timing summarizes; baselines keep quantiles, not samples", .review = R::informative},
     [](const KernelRecord& r, Samples) { return r.samples_ns.empty() ? json() : numbers(r.samples_ns); }},
    {{.key = "lines", .type = T::array, .required = false, .of = "line",
      .description = "per-line figures, where the attribution ran", .review = R::informative},
     [](const KernelRecord& r, Samples s) {
       if (r.lines.empty()) return json();
       json lines = json::array();
       for (const SourceLineFigures& l : r.lines) lines.push_back(written(l, s));
       return lines;
     }},
};

constexpr Column<CounterValue> counter_columns[] = {
    {{.key = "value", .type = T::count, .maximum = limits::max_counter, .description = "the events counted", .review = R::judged},
     [](const CounterValue& c, Samples) { return json_number(c.value); }},
    {{.key = "tolerance", .type = T::object, .of = "tolerance", .description = "how far it may move", .review = R::judged},
     [](const CounterValue& c, Samples s) { return written(c.tolerance, s); }},
};

constexpr Column<Tolerance> tolerance_columns[] = {
    {{.key = "kind", .type = T::string, .choices = tolerance_kinds, .description = "exact, or how the amount is read", .review = R::judged},
     [](const Tolerance& t, Samples) -> json {
       return t.kind == Tolerance::Kind::exact ? "exact" : t.kind == Tolerance::Kind::absolute ? "absolute" : "relative";
     }},
    {{.key = "amount", .type = T::non_negative, .required = false,
      .description = "events (absolute) or a fraction of the value (relative); never with exact", .review = R::judged},
     [](const Tolerance& t, Samples) { return t.kind == Tolerance::Kind::exact ? json() : json_number(t.amount); }},
    {{.key = "reason", .type = T::text, .required = false, .description = "why the counter varies; required with an amount", .review = R::informative},
     [](const Tolerance& t, Samples) { return t.kind == Tolerance::Kind::exact ? json() : json(t.reason); }},
};

constexpr Column<TimingSummary> timing_columns[] = {
    plain({.key = "median_ns", .type = T::non_negative, .maximum = limits::max_duration_ns, .beyond = "is beyond 1000 s for one kernel",
      .description = "the median duration", .review = R::judged}, &TimingSummary::median_ns),
    plain({.key = "mad_ns", .type = T::non_negative, .description = "the median absolute deviation from it", .review = R::informative}, &TimingSummary::mad_ns),
    plain({.key = "p10_ns", .type = T::non_negative, .description = "the 10th percentile", .review = R::informative}, &TimingSummary::p10_ns),
    plain({.key = "p90_ns", .type = T::non_negative, .description = "the 90th percentile", .review = R::informative}, &TimingSummary::p90_ns),
    plain({.key = "min_ns", .type = T::non_negative, .description = "the shortest duration", .review = R::informative}, &TimingSummary::min_ns),
    plain({.key = "samples", .type = T::count, .minimum = 1, .maximum = max_count, .description = "the durations summarized", .review = R::judged}, &TimingSummary::samples),
    plain({.key = "median_se_ns", .type = T::non_negative, .description = "the median's standard error (bootstrap)", .review = R::judged}, &TimingSummary::median_se_ns),
    {{.key = "tolerance", .type = T::object, .of = "timing_tolerance", .description = "how much slower counts as slower", .review = R::nested},
     [](const TimingSummary& t, Samples s) { return written(t.tolerance, s); }},
    plain({.key = "l2", .type = T::string, .choices = l2_states,
      .description = "warm: inputs left in L2 between launches; cold: L2 flushed before each", .review = R::method}, &TimingSummary::l2),
    plain({.key = "launches_per_sample", .type = T::integer, .minimum = 1, .maximum = limits::max_launches_per_sample,
      .description = "each sample is the mean of that many back-to-back launches", .review = R::method}, &TimingSummary::launches_per_sample),
    plain({.key = "warmup_launches", .type = T::count, .maximum = max_count, .description = "launches before durations were stable", .review = R::informative}, &TimingSummary::warmup_launches),
    plain({.key = "dropped_samples", .type = T::count, .maximum = max_count,
      .description = "samples discarded because the GPU was clocked down", .review = R::informative}, &TimingSummary::dropped_samples),
    plain({.key = "sm_clock_mhz", .type = T::non_negative, .maximum = limits::max_sm_clock_mhz,
      .beyond = "is beyond any GPU's clock",
      .description = "the median SM clock while sampling; 0 where unknown", .review = R::informative}, &TimingSummary::sm_clock_mhz),
    {{.key = "quantiles_ns", .type = T::array, .required = false, .of = "non_negative", .minimum = 21, .maximum = 21,
      .description = "the 0th, 5th, ..., 100th percentiles, for plots", .review = R::informative},
     [](const TimingSummary& t, Samples) { return t.quantiles_ns.empty() ? json() : numbers(t.quantiles_ns); }},
};

constexpr Column<TimingTolerance> timing_tolerance_columns[] = {
    plain({.key = "relative", .type = T::non_negative, .maximum = limits::max_timing_relative_tolerance,
      .beyond = "is above 50%: a timing gate that loose catches nothing",
      .description = "of the baseline median", .review = R::judged}, &TimingTolerance::relative),
    plain({.key = "absolute_ns", .type = T::non_negative, .maximum = limits::max_timing_absolute_ns,
      .beyond = "is above 1 ms: a timing gate that loose catches nothing",
      .description = "added to the relative part", .review = R::judged}, &TimingTolerance::absolute_ns),
    {{.key = "reason", .type = T::text, .required = false,
      .description = "why the test needs more room than 3% + 64 ns; required then", .review = R::informative},
     [](const TimingTolerance& t, Samples) { return text_unless_empty(t.reason); }},
    {{.key = "modes_ns", .type = T::array, .required = false, .of = "non_negative", .minimum = 2, .maximum = 10,
      .description = "the medians of the processes whose speeds differed: the tolerance then judges alone", .review = R::judged},
     [](const TimingTolerance& t, Samples) { return t.modes_ns.empty() ? json() : numbers(t.modes_ns); }},
    plain({.key = "compare_floor", .type = T::non_negative, .required = false, .maximum = limits::max_compare_floor,
      .beyond = "is above 10%: a comparison that loose misses a kernel a tenth slower",
      .description = "the smallest relative change bankgate compare decides for this test; needs the reason", .review = R::judged}, &TimingTolerance::compare_floor),
};

constexpr Column<SourceLineFigures> line_columns[] = {
    plain({.key = "file", .type = T::string, .description = "relative to the project's source folder where inside it", .review = R::informative}, &SourceLineFigures::file),
    plain({.key = "line", .type = T::count, .maximum = max_count, .description = "0: unknown (built without -lineinfo)", .review = R::informative}, &SourceLineFigures::line),
    plain({.key = "inlined", .type = T::string, .required = false,
      .description = "the inlined function's own line, where the kernel's line called it", .review = R::informative}, &SourceLineFigures::inlined),
    plain({.key = "kind", .type = T::string, .description = "an instruction kind of the metric table", .review = R::informative}, &SourceLineFigures::kind),
    plain({.key = "opcode", .type = T::string, .description = "the SASS opcodes of its instructions; empty where unknown", .review = R::informative}, &SourceLineFigures::opcode),
    plain({.key = "executions", .type = T::count, .maximum = limits::max_counter, .beyond = "is beyond any kernel's count",
      .description = "warp-level instructions executed", .review = R::informative}, &SourceLineFigures::executions),
    plain({.key = "wavefronts", .type = T::count, .maximum = limits::max_counter, .beyond = "is beyond any kernel's count",
      .description = "shared-memory wavefronts", .review = R::informative}, &SourceLineFigures::wavefronts),
    plain({.key = "ideal_wavefronts", .type = T::count, .maximum = limits::max_counter, .beyond = "is beyond any kernel's count",
      .description = "the wavefronts without conflicts", .review = R::informative}, &SourceLineFigures::ideal_wavefronts),
    plain({.key = "sectors", .type = T::count, .maximum = limits::max_counter, .beyond = "is beyond any kernel's count",
      .description = "global or local memory sectors", .review = R::informative}, &SourceLineFigures::sectors),
    plain({.key = "ideal_sectors", .type = T::count, .maximum = limits::max_counter, .beyond = "is beyond any kernel's count",
      .description = "the sectors if coalesced", .review = R::informative}, &SourceLineFigures::ideal_sectors),
};

constexpr Column<ExpectedRatios> expected_columns[] = {
    {{.key = "ratios", .type = T::map, .of = "non_negative", .description = "ratios of the metric table, by key", .review = R::informative},
     [](const ExpectedRatios& e, Samples s) { return map_of(e.ratios, s); }},
    {{.key = "why", .type = T::text, .description = "why the kernel should show them", .review = R::informative},
     [](const ExpectedRatios& e, Samples) -> json { return e.why; }},
};
// clang-format on

template <class Record, std::size_t N>
void write_columns(json& into, const Record& record, const Column<Record> (&columns)[N], Samples samples) {
  for (const Column<Record>& c : columns) {
    if (c.field.candidate_only && samples == Samples::drop) continue;
    json value = c.write ? c.write(record, samples) : write_plain(record, c);
    if (!value.is_null()) into[std::string(c.field.key)] = std::move(value);
  }
}

template <class Record, std::size_t N>
json write_object(const Record& record, const Column<Record> (&columns)[N], Samples samples) {
  json object = json::object();
  write_columns(object, record, columns, samples);
  return object;
}

json written(const GpuKey& gpu, Samples samples) { return write_object(gpu, gpu_columns, samples); }
json written(const Provenance& provenance, Samples samples) {
  return write_object(provenance, provenance_columns, samples);
}
json written(const KernelRecord& kernel, Samples samples) { return write_object(kernel, kernel_columns, samples); }
json written(const CounterValue& counter, Samples samples) { return write_object(counter, counter_columns, samples); }
json written(const Tolerance& tolerance, Samples samples) {
  return write_object(tolerance, tolerance_columns, samples);
}
json written(const TimingSummary& timing, Samples samples) { return write_object(timing, timing_columns, samples); }
json written(const TimingTolerance& t, Samples samples) { return write_object(t, timing_tolerance_columns, samples); }
json written(const SourceLineFigures& line, Samples samples) { return write_object(line, line_columns, samples); }
json written(const ExpectedRatios& expected, Samples samples) {
  return write_object(expected, expected_columns, samples);
}

json written(const TestRecord& test, Samples samples) {
  if (!test.later_kernels.empty()) return write_object(test, test_of_kernels_columns, samples);
  json object = written(static_cast<const KernelRecord&>(test), samples);
  write_columns(object, test, correct_columns, samples);
  return object;
}

template <class Record, std::size_t N>
void add_fields(std::vector<SchemaField>& fields, const Column<Record> (&columns)[N]) {
  for (const Column<Record>& c : columns) fields.push_back(c.field);
}

template <class... Tables>
SchemaObject object_of(std::string_view name, std::string_view description, const Tables&... tables) {
  SchemaObject object{name, description, {}};
  (add_fields(object.fields, tables), ...);
  return object;
}

// In Part's order.
std::vector<SchemaObject> make_objects() {
  return {
      object_of("suite_file", "what one suite's tests measured on one GPU model", suite_file_columns),
      object_of("gpu", "a GPU model, as baselines/<arch>/<model>/ names it", gpu_columns),
      object_of("provenance", "where the numbers come from", provenance_columns),
      object_of("test_of_one_kernel", "a test whose case launched one kernel: its record and the verdict of the output",
                kernel_columns, correct_columns),
      object_of("test_of_kernels", "a test whose case launched several kernels", test_of_kernels_columns),
      object_of("kernel", "what one kernel of a test measured", kernel_columns),
      object_of("counter", "one counter of a kernel", counter_columns),
      object_of("tolerance", "how far a counter may move: exact, or by an amount with its reason", tolerance_columns),
      object_of("timing", "a kernel's duration distribution and how its samples were taken", timing_columns),
      object_of("timing_tolerance", "the timing gate's threshold: relative x the baseline median + absolute_ns",
                timing_tolerance_columns),
      object_of("line", "what the instructions of one kind on one source line did in one launch", line_columns),
      object_of("expected", "the ratios a kernel's source says it should show, and why", expected_columns),
  };
}

template <class Record, std::size_t N>
std::vector<PlainField> bound(Record& record, const Column<Record> (&columns)[N]) {
  std::vector<PlainField> fields;
  for (const Column<Record>& c : columns)
    std::visit(
        [&](auto member) {
          if constexpr (!std::is_same_v<decltype(member), std::monostate>)
            fields.push_back({&c.field, &(record.*member)});
        },
        c.member);
  return fields;
}

}  // namespace

std::vector<PlainField> plain_fields(GpuKey& gpu) { return bound(gpu, gpu_columns); }
std::vector<PlainField> plain_fields(Provenance& provenance) { return bound(provenance, provenance_columns); }
std::vector<PlainField> plain_fields(KernelRecord& kernel) { return bound(kernel, kernel_columns); }
std::vector<PlainField> plain_fields(TimingSummary& timing) { return bound(timing, timing_columns); }
std::vector<PlainField> plain_fields(TimingTolerance& tolerance) { return bound(tolerance, timing_tolerance_columns); }
std::vector<PlainField> plain_fields(SourceLineFigures& line) { return bound(line, line_columns); }

bool SchemaObject::has(std::string_view key) const {
  return std::any_of(fields.begin(), fields.end(), [&](const SchemaField& f) { return f.key == key; });
}

std::span<const SchemaObject> schema_objects() {
  static const std::vector<SchemaObject> objects = make_objects();
  return objects;
}

const SchemaObject& schema_object(Part part) { return schema_objects()[static_cast<std::size_t>(part)]; }

json json_number(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 9.0e15) return static_cast<std::int64_t>(v);
  return v;
}

json kernel_document(const KernelRecord& kernel) { return written(kernel, Samples::drop); }

json suite_file_document(const SuiteFile& file, Samples samples) {
  return write_object(file, suite_file_columns, samples);
}

}  // namespace bankgate::gate
