#include <bankgate/gate/rules/shard_plan.hpp>

#include <bankgate/gate/rules/test_filter.hpp>
#include <bankgate/gate/text/text.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <system_error>

namespace bankgate::gate {
namespace {

using Micros = std::int64_t;

// At least 1: a suite of no recorded cost still counts. At most a year: a cost from a file is no reason to overflow.
Micros micros(double seconds) {
  constexpr double year = 365.0 * 24 * 3600;
  return std::max<Micros>(1, std::llround((seconds > 0.0 ? std::min(seconds, year) : 0.0) * 1e6));
}

// A whole number from 1 to max_shards, all of `text`.
std::optional<int> shard_number(const std::string& text) {
  int value = 0;
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || stop != end || value < 1 || value > max_shards) return std::nullopt;
  return value;
}

std::string suite_of(const std::string& test) { return test.substr(0, test.find('.')); }

struct Weighed {
  const ShardUnit* unit;
  Micros cost;
};

// The units, heaviest first, ties by name: the order the greedy fill takes them in.
std::vector<Weighed> by_weight(const std::vector<ShardUnit>& units, const TestSeconds& known) {
  std::vector<Weighed> order;
  for (const ShardUnit& unit : units) {
    Micros cost = 0;
    for (const std::string& test : unit.tests) {
      const auto k = known.find(test);
      cost += micros(k == known.end() ? shard_cost::unrecorded_test_s : k->second);
    }
    order.push_back({&unit, cost});
  }
  std::sort(order.begin(), order.end(), [](const Weighed& a, const Weighed& b) {
    return a.cost != b.cost ? a.cost > b.cost : a.unit->suite < b.unit->suite;
  });
  return order;
}

const Micros program_start = micros(shard_cost::program_start_s);

// The load every part should reach: the whole split's cost spread evenly, each suite program started once (and
// each part starting one, where every suite runs in a program); never less than the heaviest suite and its start.
Micros target_load(const std::vector<Weighed>& order, std::size_t parts) {
  Micros work = 0, heaviest = 0;
  std::set<std::string> programs;
  bool all_in_programs = true;
  for (const Weighed& w : order) {
    work += w.cost;
    heaviest = std::max(heaviest, w.cost + static_cast<Micros>(w.unit->programs.size()) * program_start);
    programs.insert(w.unit->programs.begin(), w.unit->programs.end());
    all_in_programs = all_in_programs && !w.unit->programs.empty();
  }
  const std::size_t starts = all_in_programs ? std::max(parts, programs.size()) : programs.size();
  const auto even = (work + static_cast<Micros>(starts) * program_start + static_cast<Micros>(parts) - 1) /
                    static_cast<Micros>(parts);
  return std::max(even, heaviest);
}

// The parts as they fill: their loads and the suite programs each starts.
class Parts {
 public:
  Parts(std::size_t n, Micros target) : load_(n, 0), started_(n), target_(target) {}

  // Where the suite goes: a part that already starts all its programs and has room for it (the programs' start
  // paid once), the one it leaves least loaded; failing that, the part it leaves least loaded, start-ups counted.
  // Ties go to the part of the smaller number. While no more suites are left (`left`, this one included) than
  // parts are empty, an empty part: no runner may stay idle while there are suites enough for all.
  std::size_t place(const Weighed& w, std::size_t left) {
    std::optional<std::size_t> fitting, least;
    Micros fitting_load = 0, least_load = 0;
    const bool to_an_empty_part = left <= static_cast<std::size_t>(std::count(load_.begin(), load_.end(), 0));
    for (std::size_t p = 0; p < load_.size(); ++p) {
      if (to_an_empty_part && load_[p] != 0) continue;
      const auto new_programs = std::count_if(w.unit->programs.begin(), w.unit->programs.end(),
                                              [&](const std::string& program) { return !started_[p].count(program); });
      const Micros after = load_[p] + w.cost + static_cast<Micros>(new_programs) * program_start;
      if (new_programs == 0 && after <= target_ && (!fitting || after < fitting_load)) {
        fitting = p;
        fitting_load = after;
      }
      if (!least || after < least_load) {
        least = p;
        least_load = after;
      }
    }
    const std::size_t chosen = fitting ? *fitting : *least;
    load_[chosen] = fitting ? fitting_load : least_load;
    started_[chosen].insert(w.unit->programs.begin(), w.unit->programs.end());
    return chosen;
  }
  Micros load(std::size_t p) const { return load_[p]; }

 private:
  std::vector<Micros> load_;
  std::vector<std::set<std::string>> started_;
  Micros target_;
};

}  // namespace

std::optional<ShardSpec> parse_shard_spec(const std::string& text, std::string& problem) {
  const std::string form = "I/N, part I of N counted from 1 (1/3, 2/3, 3/3), N at most " + std::to_string(max_shards);
  const auto slash = text.find('/');
  if (slash == std::string::npos) {
    problem = "must be " + form + ", got '" + text + "'";
    return std::nullopt;
  }
  const std::optional<int> index = shard_number(text.substr(0, slash)), count = shard_number(text.substr(slash + 1));
  if (!index || !count) {
    problem = "must be " + form + ", got '" + text + "'";
    return std::nullopt;
  }
  if (*index > *count) {
    problem = "must be I/N with I at most N (parts are counted from 1: 1/3, 2/3, 3/3), got '" + text + "'";
    return std::nullopt;
  }
  return ShardSpec{*index, *count};
}

std::string empty_part_problem(int index, int count, std::size_t suites) {
  const std::string part = "shard " + std::to_string(index) + " of " + std::to_string(count);
  if (suites == 0) return part + " has no suite to run: ctest lists no GPU test (after --filter) to split";
  return part + " has no suite to run: the gate's " + std::to_string(suites) + " suite(s) (after --filter) leave " +
         std::to_string(count - static_cast<int>(std::min<std::size_t>(suites, count))) + " of its " +
         std::to_string(count) +
         " runners idle; a runner matrix wider than the catalogue is a configuration "
         "mistake: make it at most " +
         std::to_string(std::max<std::size_t>(suites, 1)) + " wide";
}

std::vector<ShardUnit> shard_units(const std::vector<ListedTest>& tests) {
  std::map<std::string, ShardUnit> by_suite;
  for (const ListedTest& t : tests) {
    ShardUnit& unit = by_suite[suite_of(t.name)];
    unit.suite = suite_of(t.name);
    unit.tests.push_back(t.name);
    if (!t.program.empty()) unit.programs.insert(t.program);
  }
  std::vector<ShardUnit> units;
  for (auto& [suite, unit] : by_suite) {
    std::sort(unit.tests.begin(), unit.tests.end());
    unit.tests.erase(std::unique(unit.tests.begin(), unit.tests.end()), unit.tests.end());
    units.push_back(std::move(unit));
  }
  return units;
}

ShardPlan plan_shards(const std::vector<ShardUnit>& units, const TestSeconds& known, int count) {
  if (count < 1) throw std::invalid_argument("a plan needs at least one part, not " + std::to_string(count));
  const auto n = static_cast<std::size_t>(count);
  const std::vector<Weighed> order = by_weight(units, known);
  Parts parts(n, target_load(order, n));
  ShardPlan plan;
  plan.parts.resize(n);
  for (std::size_t i = 0; i < order.size(); ++i)
    plan.parts[parts.place(order[i], order.size() - i)].push_back(order[i].unit->suite);
  for (std::size_t p = 0; p < n; ++p) {
    std::sort(plan.parts[p].begin(), plan.parts[p].end());
    plan.seconds.push_back(static_cast<double>(parts.load(p)) / 1e6);
  }
  for (const ShardUnit& unit : units) plan.catalogue.push_back(unit.suite);
  std::sort(plan.catalogue.begin(), plan.catalogue.end());
  return plan;
}

std::string shard_filter(const std::string& filter, const std::vector<ShardUnit>& units, const ShardPlan& plan,
                         int index) {
  const std::vector<std::string>& mine = plan.parts.at(static_cast<std::size_t>(index - 1));
  std::set<std::string> out;
  for (const ShardUnit& unit : units) {
    if (std::binary_search(mine.begin(), mine.end(), unit.suite)) continue;
    // "Suite.*" for GoogleTest's tests; a ctest name without a dot (no GoogleTest test) as itself.
    for (const std::string& test : unit.tests)
      out.insert(test.find('.') == std::string::npos ? filter_literal(test) : filter_literal(unit.suite) + ".*");
  }
  if (out.empty()) return filter;
  const std::string joined = std::accumulate(std::next(out.begin()), out.end(), *out.begin(),
                                             [](const std::string& a, const std::string& b) { return a + ":" + b; });
  // GoogleTest's filter takes one '-': the patterns after it are left out. Ours join any the user gave.
  return filter + (has_negative_part(filter) ? ":" : "-") + joined;
}

}  // namespace bankgate::gate
