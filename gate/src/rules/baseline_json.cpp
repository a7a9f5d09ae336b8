// Reading and writing the baseline schema (baseline_json.hpp). Every read error names the file and the JSON path of
// the field.

#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/metrics.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/rules/instruction_lines.hpp>
#include <bankgate/gate/rules/statistics.hpp>
#include <bankgate/gate/rules/suite_file_table.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

namespace bankgate::gate {
namespace {

using nlohmann::json;

// A number as a message shows it: 2048, not 2048.0.
std::string show(double v) { return json_text(json_number(v), -1); }

// ---------------------------------------------------------------------------------------------------------------
// Text a baseline may hold. Every string of a baseline (reasons, kernel names, keys) comes from a pull request
// and ends up on terminals, in CI logs and in reports.

// The code point starting at text[at] and how many bytes it takes. nlohmann's parser has already refused
// malformed UTF-8; a stray byte would still be stepped over as one of its own, so this never runs past the end.
std::pair<char32_t, std::size_t> code_point_at(const std::string& text, std::size_t at) {
  char32_t c = 0;
  const std::size_t length = utf8_sequence(text, at, c);
  return length == 0 ? std::pair<char32_t, std::size_t>{static_cast<unsigned char>(text[at]), 1} : std::pair{c, length};
}

// Characters that act on a terminal or a rendered page instead of showing (text.hpp's one definition): control
// characters, newline and tab included (a newline in a reason could forge a line of the gate's log, such as a
// verdict), and the bidirectional marks that reorder the text around them.
bool is_control(char32_t c) { return is_control_character(c) || is_bidi_control(c); }

// Spaces of any width, and the invisible zero-width space and byte-order mark.
bool is_blank(char32_t c) {
  return c == ' ' || c == 0xA0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200B) || c == 0x202F || c == 0x205F ||
         c == 0x3000 || c == 0xFEFF;
}

std::string code_point_name(char32_t c) {
  char name[16];
  std::snprintf(name, sizeof name, "U+%04X", static_cast<unsigned>(c));
  return name;
}

// The first control character of `text`, described ("U+001B at byte 4"); nothing when there is none.
std::optional<std::string> control_character_in(const std::string& text) {
  for (std::size_t at = 0; at < text.size();) {
    const auto [c, length] = code_point_at(text, at);
    if (is_control(c)) return code_point_name(c) + " at byte " + std::to_string(at);
    at += length;
  }
  return std::nullopt;
}

// True when `text` shows nothing: empty, or spaces only.
bool is_blank_text(const std::string& text) {
  for (std::size_t at = 0; at < text.size();) {
    const auto [c, length] = code_point_at(text, at);
    if (!is_blank(c)) return false;
    at += length;
  }
  return true;
}

// A JSON value with the path that led to it, so errors can say where they are.
class Field {
 public:
  Field(const json& value, std::string path, const std::string& origin)
      : value_(value), path_(std::move(path)), origin_(origin) {}

  [[noreturn]] void fail(const std::string& problem) const {
    throw BaselineError(origin_ + ": field '" + path_ + "' " + problem);
  }
  const json& raw() const { return value_; }
  const std::string& path() const { return path_; }

  Field child(const std::string& key) const {
    object();
    const auto it = value_.find(key);
    if (it == value_.end()) Field(value_, join(key), origin_).fail("is missing");
    return Field(*it, join(key), origin_);
  }
  bool has(const std::string& key) const { return value_.is_object() && value_.contains(key); }
  Field element(std::size_t i) const { return Field(value_.at(i), path_ + "[" + std::to_string(i) + "]", origin_); }

  // Rejects fields outside the table of `part`: a misspelt key must not be silently ignored.
  void only(Part part) const {
    object();
    const SchemaObject& allowed = schema_object(part);
    for (const auto& [key, unused] : value_.items())
      if (!allowed.has(key))
        Field(unused, join(key), origin_)
            .fail("is not part of schema version " + std::to_string(current_schema_version) + " (misspelt?)");
  }
  void object() const {
    if (!value_.is_object()) fail("must be a JSON object");
  }
  std::string string() const {
    if (!value_.is_string()) fail("must be a string");
    std::string text = value_.get<std::string>();
    if (const auto where = control_character_in(text))
      fail("holds the control character " + *where +
           ": baseline text is printed on terminals and in reports, where "
           "such a character can rewrite what is shown; remove it (baseline text is one line of printable characters)");
    return text;
  }
  // A reason or explanation: text that says something, not empty and not spaces only.
  std::string reason(const std::string& what_is_missing) const {
    std::string text = string();
    if (is_blank_text(text)) fail("is blank: " + what_is_missing);
    return text;
  }
  bool boolean() const {
    if (!value_.is_boolean()) fail("must be true or false");
    return value_.get<bool>();
  }
  double non_negative() const {
    if (!value_.is_number()) fail("must be a number");
    const double v = value_.get<double>();
    if (!std::isfinite(v)) fail("must be finite");
    if (v < 0) fail("must not be negative (got " + json_text(value_, -1) + ")");
    return v;
  }
  std::size_t count() const {
    if (!value_.is_number_unsigned()) fail("must be a whole number >= 0");
    const auto v = value_.get<std::uint64_t>();
    if (v > std::numeric_limits<std::uint32_t>::max()) fail("is out of range (got " + json_text(value_, -1) + ")");
    return static_cast<std::size_t>(v);
  }
  // A counter's value as written in a baseline: counters count events, so the value is a whole number written
  // as one (the writer prints integral values without a fraction, see json_number() in suite_file_table.hpp).
  double counter_value() const {
    const double v = non_negative();
    if (v > limits::max_counter) fail("is beyond any kernel's count");
    if (!value_.is_number_unsigned())
      fail("must be a whole number: a counter counts events (got " + json_text(value_, -1) +
           "; write it without a fraction or exponent)");
    return v;
  }
  // A whole number >= 0 of 64 bits; its bound is its row's.
  std::uint64_t whole_count() const {
    if (!value_.is_number_unsigned()) fail("must be a whole number >= 0");
    return value_.get<std::uint64_t>();
  }
  int integer() const {
    if (!value_.is_number_integer()) fail("must be a whole number");
    const auto v = value_.get<std::int64_t>();
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
      fail("is out of range (got " + json_text(value_, -1) + ")");
    return static_cast<int>(v);
  }

 private:
  std::string join(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }
  const json& value_;
  std::string path_;
  const std::string& origin_;
};

// ---------------------------------------------------------------------------------------------------------------
// Plain fields (suite_file_table.hpp): read by their rows alone, type, bounds and choices.

// A plain number against its row's bounds. The maximum of a count is the range of its type, no bound of the field.
void check_bounds(const Field& f, const SchemaField& row, double v) {
  const bool stated_maximum = row.maximum && !(row.type == JsonType::count && *row.maximum == max_count);
  const std::string range = row.minimum && stated_maximum
                                ? "must be between " + show(*row.minimum) + " and " + show(*row.maximum)
                            : row.minimum ? "must be at least " + show(*row.minimum)
                                          : "must be at most " + show(row.maximum.value_or(0.0));
  if (row.minimum && v < *row.minimum) f.fail(range);
  if (row.maximum && v > *row.maximum) f.fail(row.beyond.empty() ? range : std::string(row.beyond));
}

void check_choice(const Field& f, const SchemaField& row, const std::string& value) {
  if (row.choices.empty() ||
      std::find(row.choices.begin(), row.choices.end(), std::string_view(value)) != row.choices.end())
    return;
  std::string allowed;
  for (std::size_t i = 0; i < row.choices.size(); ++i)
    allowed += std::string(i == 0                        ? ""
                           : i + 1 == row.choices.size() ? " or "
                                                         : ", ") +
               "\"" + std::string(row.choices[i]) + "\"";
  f.fail("must be " + allowed + " (got \"" + value + "\")");
}

void read_into(const Field& f, const SchemaField& row, std::string& v) {
  v = row.type == JsonType::text ? f.reason("say " + std::string(row.description)) : f.string();
  check_choice(f, row, v);
}
void read_into(const Field& f, const SchemaField&, bool& v) { v = f.boolean(); }
void read_into(const Field& f, const SchemaField& row, int& v) {
  v = f.integer();
  check_bounds(f, row, v);
}
void read_into(const Field& f, const SchemaField& row, double& v) {
  v = f.non_negative();
  check_bounds(f, row, v);
}
void read_into(const Field& f, const SchemaField& row, std::uint32_t& v) {
  v = static_cast<std::uint32_t>(f.count());
  check_bounds(f, row, v);
}
void read_into(const Field& f, const SchemaField& row, std::uint64_t& v) {
  v = f.whole_count();
  check_bounds(f, row, static_cast<double>(v));
}

// Every plain field of `object` into the record `fields` point into; an optional one absent keeps its default.
void read_plain(const Field& object, const std::vector<PlainField>& fields) {
  for (const PlainField& p : fields) {
    const std::string key(p.row->key);
    if (!p.row->required && !object.has(key)) continue;
    const Field f = object.child(key);
    std::visit([&](auto* target) { read_into(f, *p.row, *target); }, p.value);
  }
}

// nlohmann treats a NUL byte as the end of the text: "{...}\0anything" would read as the document before the NUL
// and hide whatever follows it. JSON text never holds one (inside a string it must be written \u0000).
void refuse_nul_bytes(const std::string& text, const std::string& origin) {
  const std::size_t nul = text.find('\0');
  if (nul != std::string::npos)
    throw BaselineError(origin + ": holds a NUL byte at byte " + std::to_string(nul) +
                        ": a baseline is JSON text; the file is binary or corrupt, record it again");
}

// One past the bracket that closes the object or array opening `text` (brackets inside strings do not count);
// npos when `text` does not open with one or it never closes.
std::size_t end_of_first_value(const std::string& text) {
  const std::size_t open = text.find_first_not_of(" \t\r\n");
  if (open == std::string::npos || (text[open] != '{' && text[open] != '[')) return std::string::npos;
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = open; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character cannot end the string
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return i + 1;
    }
  }
  return std::string::npos;
}

// Why nlohmann refused `text`, in words. The one case worth naming apart is a complete document followed by
// more text (two files run together, or an edit's leftover), which nlohmann reports as an unexpected token.
std::string parse_failure(const std::string& text, const json::exception& e) {
  const std::size_t end = end_of_first_value(text);
  if (end != std::string::npos && json::accept(text.substr(0, end))) {
    const std::size_t extra = text.find_first_not_of(" \t\r\n", end);
    if (extra != std::string::npos)
      return "text follows the end of the JSON document at byte " + std::to_string(extra) +
             ": a baseline is one JSON object; remove what comes after its closing brace";
  }
  return std::string("not valid JSON (truncated or corrupt?): ") + e.what();
}

// Keys are checked while parsing, once each: a duplicate (nlohmann keeps the last of two equal keys without a
// word, and a baseline with two entries for one test is ambiguous) and a control character (a key becomes a
// counter's or a test's name in every message). Each open object remembers its keys in a hash set, so a
// document of many keys costs time in proportion to its size (comparing each key with all earlier ones took
// 84 s on one object of 120,000 keys).
// How deep a document may nest, how many values it may hold and how many keys one object may have, checked while
// it is parsed: the schema nests six levels (tests, a test, its lines, a line, a field); the largest committed
// baseline holds 5,005 values and a candidate at the samples bound about 100,000; the widest object is a suite's
// tests. Beyond them parsing stops at once, before the document costs memory and time: 63 MiB of nested arrays
// took 2.4 GB and 30 s to refuse, an object of 4 million keys minutes.
constexpr std::size_t max_nesting = 16;
constexpr std::size_t max_values = 1000000;
constexpr std::size_t max_keys_per_object = 200000;
struct TooLarge {
  std::string problem;
};

json parse_rejecting_duplicates(const std::string& text, const std::string& origin) {
  refuse_nul_bytes(text, origin);
  std::size_t depth = 0, values = 0;
  struct OpenObject {
    std::unordered_set<std::string> keys;  // seen so far in this object
    std::string current;                   // the key whose value is being parsed
  };
  std::vector<OpenObject> open_objects;
  std::string problem;  // the first bad key, with its path; parsing goes on, the error is raised after
  const auto path_of_current = [&] {
    std::string path;
    for (const auto& level : open_objects) path += (path.empty() ? "" : ".") + level.current;
    return path;
  };
  const json::parser_callback_t callback = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) {
      if (++depth > max_nesting)
        throw TooLarge{"nests deeper than " + std::to_string(max_nesting) +
                       " levels, which no baseline or candidate does"};
    }
    if (event == json::parse_event_t::object_end || event == json::parse_event_t::array_end) --depth;
    if (event == json::parse_event_t::value && ++values > max_values)
      throw TooLarge{"holds more than " + std::to_string(max_values) + " values, more than any baseline or candidate"};
    if (event == json::parse_event_t::object_start) open_objects.emplace_back();
    if (event == json::parse_event_t::object_end && !open_objects.empty()) open_objects.pop_back();
    if (event == json::parse_event_t::key && !open_objects.empty() && problem.empty()) {
      OpenObject& top = open_objects.back();
      top.current = parsed.get<std::string>();
      if (const auto where = control_character_in(top.current)) {
        top.current = json_text(json(top.current), -1);  // the key escaped, never raw, in the message
        problem = "key '" + path_of_current() + "' holds the control character " + *where + "; rename it";
      } else if (!top.keys.insert(top.current).second) {
        problem = "key '" + path_of_current() + "' appears twice in one object";
      } else if (top.keys.size() > max_keys_per_object) {
        throw TooLarge{"has an object of more than " + std::to_string(max_keys_per_object) +
                       " keys, more than any baseline or candidate"};
      }
    }
    return true;
  };
  json document;
  try {
    document = json::parse(text, callback);
  } catch (const json::exception& e) {  // syntax errors, and numbers beyond double range (1e999)
    throw BaselineError(origin + ": " + parse_failure(text, e));
  } catch (const TooLarge& e) {
    throw BaselineError(origin + ": " + e.problem + "; it is not one bankgate wrote: record it again");
  }
  if (!problem.empty()) throw BaselineError(origin + ": " + problem);
  return document;
}

Tolerance read_tolerance(const Field& f) {
  f.only(Part::tolerance);
  Tolerance t;
  const std::string kind = f.child("kind").string();
  if (kind == "exact") {
    t.kind = Tolerance::Kind::exact;
    if (f.has("amount")) f.child("amount").fail("is not allowed for an exact tolerance");
    return t;
  }
  if (kind == "absolute")
    t.kind = Tolerance::Kind::absolute;
  else if (kind == "relative")
    t.kind = Tolerance::Kind::relative;
  else
    f.child("kind").fail("must be \"exact\", \"absolute\" or \"relative\" (got \"" + kind + "\")");
  t.amount = f.child("amount").non_negative();
  if (t.kind == Tolerance::Kind::relative && t.amount > limits::max_counter_relative_tolerance)
    f.child("amount").fail(
        "is a relative tolerance above 50% (the most a counter may move): a counter that may double is "
        "not gated; tighten it");
  if (t.kind == Tolerance::Kind::absolute && t.amount > limits::max_counter)
    f.child("amount").fail("is beyond any counter value (at most " + json_text(json(limits::max_counter), -1) + ")");
  if (!f.has("reason")) f.fail("loosens a counter without a reason: add \"reason\" saying why the counter varies");
  t.reason = f.child("reason").reason("a counter loosened without a reason; say why the counter varies");
  return t;
}

// ---------------------------------------------------------------------------------------------------------------
// A timing summary's numbers all come from one set of samples (summarize_durations in statistics.cpp); they
// must agree with each other, or a hand edit could loosen the gate without touching its tolerance.

// The writer prints doubles exactly, so numbers computed alike are equal; this leaves room for a hand-written
// file that shortened one of them, nothing more.
constexpr double rounding = 1e-6;  // relative
bool same_value(double a, double b) { return std::abs(a - b) <= rounding * std::max(std::abs(a), std::abs(b)); }

// One step of the GPU's timer (cupti_collector/src/activity_timer.cpp): durations are multiples of it, and a
// sample of k launches is a multiple of tick / k.
constexpr double timer_tick_ns = 32.0;

// min_ns, p10_ns, median_ns and p90_ns come from the same quantile() calls as quantiles_ns[0], [2], [10] and
// [18] (i / 20.0 is exactly 0.1, 0.5 and 0.9 for those i): in a recorded file they are equal.
void check_quantiles_agree(const Field& f, const TimingSummary& t) {
  struct Same {
    const char* field;
    double value;
    std::size_t index;
  };
  for (const Same& s : {Same{"min_ns", t.min_ns, 0}, Same{"p10_ns", t.p10_ns, 2}, Same{"median_ns", t.median_ns, 10},
                        Same{"p90_ns", t.p90_ns, 18}})
    if (!same_value(s.value, t.quantiles_ns[s.index]))
      f.child(s.field).fail("is " + show(s.value) + " but quantiles_ns[" + std::to_string(s.index) +
                            "], the same percentile of the same samples, is " + show(t.quantiles_ns[s.index]) +
                            ": one of them was edited; record the baseline again (bankgate refresh)");
}

// mad_ns is the median distance of the samples from their median. The samples between p10_ns and p90_ns lie
// within max(median - p10, p90 - median) of the median, and from 5 samples on they are more than half of all
// (positions ceil(0.1 (n-1)) .. floor(0.9 (n-1)) of n), so the median distance cannot exceed that reach. Fewer
// samples can: of two samples the MAD is half their gap, p10..p90 only 80% of it.
void check_mad_within_spread(const Field& f, const TimingSummary& t) {
  if (t.samples < 5) return;
  const double reach = std::max(t.median_ns - t.p10_ns, t.p90_ns - t.median_ns);
  if (t.mad_ns > reach + rounding * t.median_ns)
    f.child("mad_ns").fail("is " + show(t.mad_ns) + " ns, more than the samples' spread allows (at most " +
                           show(reach) +
                           " ns, the larger of median_ns - p10_ns and p90_ns - median_ns); "
                           "record the baseline again (bankgate refresh)");
}

// median_se_ns is the number the timing comparison trusts most: it widens the interval a slowdown must clear
// (comparison.cpp), and a baseline whose median_se_ns equals its median lets a 5x slower run pass as ok.
// How large can it honestly be? statistics.cpp computes it as the standard deviation of the medians of 400
// resamples (drawn with replacement) of the samples. A resample's median leaves [p10_ns, p90_ns] only when
// half its draws come from the tenth of the samples beyond one end: with 20 samples or more that binomial tail
// is below 1e-4 per resample (below 1e-10 from 50 on). Values confined to an interval have a standard deviation
// of at most half its width, so median_se_ns <= (p90_ns - p10_ns) / 2, reached only by two equal clusters at
// p10 and p90: a bimodal kernel (committed baselines come near it: docs/measurement.md). The
// bound allows twice the ceiling, the whole spread, and at least one step of the timer, so that a spread of
// zero leaves room for rounding. A bound shrinking as 1/sqrt(samples), as for a normal distribution, would
// refuse real bimodal recordings (their standard error does not shrink with more samples) and gains little:
// the file states the sample count too. Below min_timing_samples the comparison decides nothing (too few
// samples), the standard error hides nothing, and small samples are not held to the bound.
void check_standard_error_within_spread(const Field& f, const TimingSummary& t) {
  if (t.samples < min_timing_samples) return;
  const double tick = timer_tick_ns / t.launches_per_sample;
  if (t.median_se_ns > limits::max_timing_relative_se * t.median_ns + tick)
    f.child("median_se_ns")
        .fail("is " + show(t.median_se_ns) + " ns, more than 10% of the median (" + show(t.median_ns) +
              " ns): a kernel that noisy cannot be timed, and a standard error that large would hide a "
              "slowdown from the timing gate; record the baseline again (bankgate refresh)");
  // The median's standard error follows from how densely the samples lie around it: about
  // (q60 - q40) / (2 x 0.2 x sqrt(n)), from the 40th and 60th percentiles. The committed baselines stay within
  // 1.1 times that; four times it leaves room for any real distribution. Samples lie on the timer's grid, so
  // where the quantiles around the median are tied the bootstrap's median still moves by whole steps: four steps
  // of the timer are allowed on top (the 10% and p90 - p10 bounds above and below hold regardless).
  if (t.quantiles_ns.size() == 21) {
    const double local = 2.5 * (t.quantiles_ns[12] - t.quantiles_ns[8]) / std::sqrt(static_cast<double>(t.samples));
    const double most = 4.0 * local + 4.0 * tick;
    if (t.median_se_ns > most)
      f.child("median_se_ns")
          .fail("is " + show(t.median_se_ns) + " ns, more than the samples around the median allow (at most " +
                show(most) +
                " ns, from quantiles_ns[8] and [12], the sample count and four timer "
                "steps); record the baseline again (bankgate refresh)");
  }
  const double ceiling = std::max(t.p90_ns - t.p10_ns, timer_tick_ns / t.launches_per_sample);
  if (t.median_se_ns > ceiling * (1 + rounding))
    f.child("median_se_ns")
        .fail("is " + show(t.median_se_ns) + " ns, more than the samples it comes from allow (at most " +
              show(ceiling) +
              " ns: p90_ns - p10_ns, or one timer step of 32 ns / launches_per_sample "
              "if that is more); a standard error that large would hide a slowdown from the timing "
              "gate; record the baseline again (bankgate refresh)");
}

// The process medians a timing tolerance was widened for: two or more durations, with the reason beside them, since
// they make the tolerance the duration's only judge.
std::vector<double> read_modes(const Field& tol) {
  const Field modes = tol.child("modes_ns");
  if (!modes.raw().is_array() || modes.raw().size() < 2 || modes.raw().size() > 10)
    modes.fail(
        "must be an array of two to ten process medians (ns; a refresh measures in at most 10 processes), or be "
        "removed: one speed is no modes");
  if (!tol.has("reason")) modes.fail("needs the tolerance's \"reason\" beside it, naming the modes it was widened for");
  std::vector<double> medians;
  for (std::size_t i = 0; i < modes.raw().size(); ++i) {
    const double m = modes.element(i).non_negative();
    if (m == 0.0 || m > limits::max_duration_ns)
      modes.element(i).fail("is not a median duration (above 0 ns, at most 1000 s)");
    medians.push_back(m);
  }
  return medians;
}

TimingTolerance read_timing_tolerance(const Field& tol) {
  TimingTolerance tolerance;
  tol.only(Part::timing_tolerance);
  read_plain(tol, plain_fields(tolerance));  // relative, absolute_ns and compare_floor within their rows' bounds
  if (tol.has("reason"))
    tolerance.reason = tol.child("reason").reason("say why this test's timing needs more room, or remove \"reason\"");
  if (tol.has("modes_ns")) tolerance.modes_ns = read_modes(tol);
  if (compare_floor_problem(tolerance) == CompareFloorProblem::without_reason)
    tol.child("compare_floor")
        .fail("needs the tolerance's \"reason\" beside it, saying why smaller changes of this test are not decided");
  const TimingTolerance standard;
  if ((tolerance.relative > standard.relative || tolerance.absolute_ns > standard.absolute_ns) &&
      tolerance.reason.empty())
    tol.fail("loosens the timing gate beyond the default (3% + 64 ns) without a reason: add \"reason\" saying why");
  return tolerance;
}

TimingSummary read_timing(const Field& f) {
  f.only(Part::timing);
  TimingSummary t;
  read_plain(f, plain_fields(t));  // each figure within its row's bounds, l2 one of its choices
  t.tolerance = read_timing_tolerance(f.child("tolerance"));
  if (t.median_se_ns > t.median_ns)
    f.child("median_se_ns").fail("is larger than the median itself: no measurement gives that");
  if (t.min_ns > t.p10_ns || t.p10_ns > t.median_ns || t.median_ns > t.p90_ns)
    f.fail("is not a distribution: min_ns <= p10_ns <= median_ns <= p90_ns must hold");
  if (f.has("quantiles_ns")) {
    const Field q = f.child("quantiles_ns");
    if (!q.raw().is_array() || q.raw().size() != 21)
      q.fail("must be an array of 21 durations (0th, 5th, ..., 100th percentile)");
    for (std::size_t i = 0; i < 21; ++i) {
      const double v = q.element(i).non_negative();
      if (!t.quantiles_ns.empty() && v < t.quantiles_ns.back()) q.element(i).fail("is below the percentile before it");
      t.quantiles_ns.push_back(v);
    }
    check_quantiles_agree(f, t);
  }
  check_mad_within_spread(f, t);
  check_standard_error_within_spread(f, t);
  const double threshold = t.tolerance.relative * t.median_ns + t.tolerance.absolute_ns;
  const double most = limits::max_timing_threshold_of_median * t.median_ns + TimingTolerance{}.absolute_ns;
  if (threshold > most * (1 + rounding))
    f.child("tolerance")
        .fail(
            "lets the median grow by " + show(threshold) + " ns, more than half the median (" + show(t.median_ns) +
            " ns) plus 64 ns, the most a timing tolerance may allow: a kernel 1.5 times slower must fail; tighten it");
  return t;
}

std::vector<SourceLineFigures> read_lines(const Field& f) {
  if (!f.raw().is_array()) f.fail("must be an array of per-line figures");
  std::vector<SourceLineFigures> lines;
  for (std::size_t i = 0; i < f.raw().size(); ++i) {
    const Field e = f.element(i);
    e.only(Part::line);
    SourceLineFigures l;
    read_plain(e, plain_fields(l));
    if (find_instruction_kind(l.kind) == nullptr)
      e.child("kind").fail("is not an instruction kind of this bankgate (got \"" + l.kind + "\")");
    lines.push_back(std::move(l));
  }
  return lines;
}

ExpectedRatios read_expected(const Field& e) {
  e.only(Part::expected);
  ExpectedRatios expected;
  const Field ratios = e.child("ratios");
  ratios.object();
  for (const auto& [name, unused] : ratios.raw().items()) {
    if (find_ratio(name) == nullptr) ratios.child(name).fail("is not a ratio of this bankgate's metric table");
    expected.ratios[name] = ratios.child(name).non_negative();
  }
  expected.why = e.child("why").reason("say why the kernel should show these ratios");
  return expected;
}

// An absolute counter tolerance may allow no more than the relative bound of the counter's value, or
// min_counter_absolute_bound events where that is more: without it, an amount of 1e15 lets any change pass.
void check_absolute_bound(const Field& tolerance, const CounterValue& c) {
  if (c.tolerance.kind != Tolerance::Kind::absolute) return;
  const double bound = std::max(limits::max_counter_relative_tolerance * c.value, limits::min_counter_absolute_bound);
  if (c.tolerance.amount > bound)
    tolerance.child("amount").fail(
        "lets the counter move by " + show(c.tolerance.amount) + ", more than half its value (" + show(c.value) +
        ") or " + show(limits::min_counter_absolute_bound) +
        " events, the most a tolerance may allow: a counter that may double is not gated; tighten it");
}

// Derived figures are what the counters and per-line figures give (gate_fixture.cpp writes them so); the README's
// kernel table and the reports show them. One edited apart from its counters (a ratio of 1 over 32,000 wavefronts
// for 1,000 requests, shown as conflict-free) is refused.
void check_derived(const Field& derived, const KernelRecord& r) {
  const std::map<std::string, double> excess = excess_by_kind(r.lines);
  for (const auto& [name, value] : r.derived) {
    std::optional<double> expected;
    std::string from;
    if (const auto e = excess.find(name); e != excess.end()) {
      expected = e->second;
      from = "the per-line figures";
    } else if (const RatioTraits* ratio = find_ratio(name)) {
      const auto n = r.counters.find(std::string(ratio->numerator));
      const auto d = r.counters.find(std::string(ratio->denominator));
      if (n != r.counters.end() && d != r.counters.end())
        expected = d->second.value == 0.0 ? 0.0 : n->second.value / d->second.value;
      from = std::string(ratio->numerator) + " / " + std::string(ratio->denominator);
    }
    if (expected && !same_value(value, *expected))
      derived.child(name).fail(
          "is " + show(value) + ", but " + from + " give " + show(*expected) +
          ": a derived figure must be what its counters give; record the baseline again (bankgate refresh)");
  }
}

// A candidate keeps its samples beside their summary: the summary must be theirs (summarize_durations).
void check_summary_of_samples(const Field& f, const KernelRecord& r) {
  const TimingSummary& t = *r.timing;
  const Field timing = f.child("timing");
  if (r.samples_ns.size() != t.samples)
    timing.child("samples").fail("is " + std::to_string(t.samples) + " but samples_ns holds " +
                                 std::to_string(r.samples_ns.size()) +
                                 " durations: re-run the suite instead of editing candidates");
  struct Same {
    const char* field;
    double value, q;
  };
  for (const Same& s : {Same{"min_ns", t.min_ns, 0.0}, Same{"p10_ns", t.p10_ns, 0.1},
                        Same{"median_ns", t.median_ns, 0.5}, Same{"p90_ns", t.p90_ns, 0.9}})
    if (const double of_samples = quantile(r.samples_ns, s.q); !same_value(s.value, of_samples))
      timing.child(s.field).fail("is " + show(s.value) + " but the samples in samples_ns give " + show(of_samples) +
                                 ": re-run the suite instead of editing candidates");
}

// One kernel's figures: the whole record of a test of one kernel (beside "correct"), or one of "kernels".
void read_kernel(const Field& f, const std::set<std::string>* known_metrics, KernelRecord& r) {
  read_plain(f, plain_fields(r));
  const Field counters = f.child("counters");
  counters.object();
  for (const auto& [name, unused] : counters.raw().items()) {
    const Field c = counters.child(name);
    if (known_metrics != nullptr && known_metrics->count(name) == 0)
      c.fail("is an unknown metric; the collector measures only the configured metrics");
    c.only(Part::counter);
    r.counters[name] = {c.child("value").counter_value(), read_tolerance(c.child("tolerance"))};
    check_absolute_bound(c.child("tolerance"), r.counters[name]);
  }
  if (f.has("derived")) {
    const Field derived = f.child("derived");
    derived.object();
    for (const auto& [name, unused] : derived.raw().items()) r.derived[name] = derived.child(name).non_negative();
  }
  if (f.has("expected")) r.expected = read_expected(f.child("expected"));
  if (f.has("timing")) r.timing = read_timing(f.child("timing"));
  if (f.has("lines")) r.lines = read_lines(f.child("lines"));
  if (f.has("samples_ns")) {
    const Field samples = f.child("samples_ns");
    if (!samples.raw().is_array()) samples.fail("must be an array of numbers");
    if (samples.raw().size() > limits::max_samples_per_test)
      samples.fail("holds " + std::to_string(samples.raw().size()) + " durations, more than the " +
                   std::to_string(limits::max_samples_per_test) +
                   " bankgate reads for one test (its collector stops at "
                   "20,000): re-run the suite instead of editing candidates");
    for (std::size_t i = 0; i < samples.raw().size(); ++i) r.samples_ns.push_back(samples.element(i).non_negative());
    if (r.timing) check_summary_of_samples(f, r);
  }
  if (f.has("derived")) check_derived(f.child("derived"), r);
}

TestRecord read_test(const Field& f, const std::set<std::string>* known_metrics) {
  TestRecord r;
  if (!f.has("kernels")) {
    f.only(Part::test_of_one_kernel);
    r.correct = f.child("correct").boolean();
    read_kernel(f, known_metrics, r);
    return r;
  }
  // A case that launched several kernels: each its own record, in launch order.
  f.only(Part::test_of_kernels);
  r.correct = f.child("correct").boolean();
  const Field kernels = f.child("kernels");
  if (!kernels.raw().is_array() || kernels.raw().size() < 2)
    kernels.fail("must list the records of two or more kernels (a test of one kernel is written without \"kernels\")");
  for (std::size_t i = 0; i < kernels.raw().size(); ++i) {
    const Field k = kernels.element(i);
    k.only(Part::kernel);
    read_kernel(k, known_metrics, i == 0 ? static_cast<KernelRecord&>(r) : r.later_kernels.emplace_back());
  }
  return r;
}

Provenance read_provenance(const Field& f) {
  f.only(Part::provenance);
  Provenance p;
  read_plain(f, plain_fields(p));
  return p;
}

}  // namespace

SuiteFile parse_suite_file(const std::string& text, const std::string& origin,
                           const std::set<std::string>* known_metrics) {
  const json document = parse_rejecting_duplicates(text, origin);
  const Field root(document, "", origin);
  root.only(Part::suite_file);
  SuiteFile file;
  file.schema_version = root.child("schema_version").integer();
  if (file.schema_version != current_schema_version) {
    const std::string problem = "is " + std::to_string(file.schema_version) + "; this bankgate reads version " +
                                std::to_string(current_schema_version);
    if (file.schema_version > 0 && file.schema_version < current_schema_version)
      throw OldSchemaError(origin + ": field 'schema_version' " + problem +
                               ", which adds global, local, cp.async, ldmatrix, " +
                               "instruction and launch counters; record the baselines again with: bankgate refresh " +
                               "--build <your build> (it replaces the old file)",
                           file.schema_version);
    root.child("schema_version")
        .fail(problem + " (record them again with: bankgate refresh --build <your build> --new-gpu)");
  }
  file.suite = root.child("suite").string();
  if (!is_valid_test_name(file.suite))
    root.child("suite").fail("must be a GoogleTest suite name (letters, digits, '_', parts joined by '/'), got \"" +
                             file.suite + "\"");
  if (root.has("baselines")) file.baseline_dir = root.child("baselines").string();
  const Field gpu = root.child("gpu");
  gpu.only(Part::gpu);
  read_plain(gpu, plain_fields(file.gpu));
  for (const char* part : {"arch", "model"})
    if (!is_valid_gpu_name(part == std::string("arch") ? file.gpu.arch : file.gpu.model))
      gpu.child(part).fail("must be letters, digits, '_' and '-' only (it names a folder)");
  file.provenance = read_provenance(root.child("provenance"));
  const Field tests = root.child("tests");
  tests.object();
  for (const auto& [name, unused] : tests.raw().items()) {
    if (!is_valid_test_name(name)) tests.child(name).fail("is not a GoogleTest test name (it names a candidate file)");
    file.tests[name] = read_test(tests.child(name), known_metrics);
  }
  return file;
}

std::string serialize_suite_file(const SuiteFile& f, Samples samples) {
  // nlohmann's object is a std::map: keys come out sorted. A --command or BANKGATE_GIT_COMMIT that is not UTF-8
  // is written with U+FFFD (json_text), never thrown on.
  return json_text(suite_file_document(f, samples)) + "\n";
}

}  // namespace bankgate::gate
