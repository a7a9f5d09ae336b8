#include <bankgate/gate/rules/extra_rounds.hpp>

#include <bankgate/gate/text/text.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace bankgate::gate {
namespace {

// The decision of one test's rounds, where both sides have the two rounds judge_rounds needs.
std::optional<RoundDecision> decision_of(const std::string& test, const PooledRuns& base, const PooledRuns& head,
                                         const NoisePolicy& policy) {
  const auto record = base.records.find(test);
  const auto b = base.rounds.find(test), h = head.rounds.find(test);
  if (record == base.records.end() || !record->second.timing || b == base.rounds.end() || h == head.rounds.end())
    return std::nullopt;
  if (b->second.medians_ns.size() < 2 || h->second.medians_ns.size() < 2) return std::nullopt;
  const TimingSummary& timing = *record->second.timing;
  return judge_rounds(
      {b->second.medians_ns, h->second.medians_ns, timing.launches_per_sample, timing.tolerance.compare_floor}, policy);
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, seconds < 10.0 ? "%.1f s" : "%.0f s", seconds);
  return text;
}

struct Need {
  std::size_t rounds;  // more rounds a side
  const UndecidedTest* test;
};

// The decision as it would stand if the change lay one standard error nearer to none: what further rounds may well
// show where the change so far is chance (a comparison of a build against itself shows a change of about that
// size, and one near the floor never looks decidable as it stands).
RoundDecision nearer_no_change(RoundDecision d) {
  const double standard_error = change_standard_error(d.noise, d.rounds);
  const double log_change = std::log1p(d.change);
  d.change = std::expm1(std::copysign(std::max(std::abs(log_change) - standard_error, 0.0), log_change));
  return d;
}

// Each test's further rounds to a decision, with its decision as judged (`hopeful` false) or with its change one
// standard error nearer to none (`hopeful` true), where that fits in `affordable` test-rounds and `most_rounds` a
// side. The others are returned in `left`.
std::vector<Need> needs_within(const std::vector<UndecidedTest>& undecided, double affordable,
                               const RoundBudget& budget, const NoisePolicy& policy, bool hopeful,
                               std::vector<UndecidedTest>& left) {
  std::vector<Need> needs;
  for (const UndecidedTest& t : undecided) {
    if (t.decision.verdict != Verdict::inconclusive) continue;
    const std::size_t have = t.decision.rounds;
    const double cap = budget.most_rounds > have ? static_cast<double>(budget.most_rounds - have) : 0.0;
    const auto room = static_cast<std::size_t>(std::min(affordable, cap));
    // rounds_to_decide answers `most` both for "decided with exactly most" and "not even then": one more keeps
    // the two apart.
    const std::size_t most = have + room + 1;
    const RoundDecision projected = hopeful ? nearer_no_change(t.decision) : t.decision;
    const std::size_t wanted = room == 0 ? most : rounds_to_decide(projected, most, policy);
    if (wanted >= most)
      left.push_back(t);
    else
      needs.push_back({wanted - have, &t});
  }
  // Cheapest first: the budget decides as many tests as it can.
  std::stable_sort(needs.begin(), needs.end(), [](const Need& a, const Need& b) { return a.rounds < b.rounds; });
  return needs;
}

// Takes the needs that fit in what `affordable` test-rounds leave after `committed`, in order; the rest go to
// `unpaid`.
void take_affordable(const std::vector<Need>& needs, double affordable, double& committed,
                     std::vector<std::string>& measure, std::vector<UndecidedTest>& unpaid) {
  for (const Need& n : needs) {
    if (committed + static_cast<double>(n.rounds) <= affordable) {
      committed += static_cast<double>(n.rounds);
      measure.push_back(n.test->name);
    } else {
      unpaid.push_back(*n.test);
    }
  }
}

}  // namespace

std::vector<UndecidedTest> undecided_tests(const PooledRuns& base, const PooledRuns& head, const NoisePolicy& policy) {
  std::vector<UndecidedTest> out;
  for (const ComparisonRow& row : compare_runs(base, head, policy)) {
    const bool undecided = std::any_of(row.findings.begin(), row.findings.end(),
                                       [](const Finding& f) { return f.timing && f.verdict == Verdict::inconclusive; });
    if (!undecided) continue;
    if (const auto d = decision_of(row.test, base, head, policy)) out.push_back({row.test, *d});
  }
  return out;
}

ExtraRoundPlan plan_extra_round(const std::vector<UndecidedTest>& undecided, const RoundBudget& budget,
                                const NoisePolicy& policy) {
  ExtraRoundPlan plan;
  if (!(budget.seconds_per_test > 0.0))
    throw std::invalid_argument("plan_extra_round: a test's round must take some time");
  const double affordable = std::floor(std::max(budget.seconds_left, 0.0) / budget.seconds_per_test);  // test-rounds
  plan.budget_spent = affordable < 1.0;
  // First the tests whose change, as judged, more rounds can decide; then, with what they leave, those that more
  // rounds may decide if their change so far is partly chance. A true change on the floor may spend the rest of
  // the budget that way: the budget is there to decide tests, and it is never exceeded.
  std::vector<UndecidedTest> unsure, unpaid;
  double committed = 0.0;
  take_affordable(needs_within(undecided, affordable, budget, policy, false, unsure), affordable, committed,
                  plan.measure, unpaid);
  std::vector<UndecidedTest> hopeless;
  take_affordable(needs_within(unsure, affordable - committed, budget, policy, true, hopeless), affordable, committed,
                  plan.measure, unpaid);
  for (const UndecidedTest& t : hopeless) plan.out_of_reach.push_back(t.name);
  for (const UndecidedTest& t : unpaid) plan.out_of_reach.push_back(t.name);
  std::sort(plan.measure.begin(), plan.measure.end());
  std::sort(plan.out_of_reach.begin(), plan.out_of_reach.end());
  plan.forecast_seconds = static_cast<double>(plan.measure.size()) * budget.seconds_per_test;
  return plan;
}

double seconds_per_test(double round_seconds, std::size_t tests) {
  if (tests == 0) throw std::invalid_argument("seconds_per_test: a round that measured no test");
  // A clock that says a round took no time must still leave each test some cost, or any budget buys endless rounds.
  return std::max(round_seconds, 1e-3) / static_cast<double>(tests);
}

std::string filter_naming(const std::vector<std::string>& tests) {
  std::string filter;
  for (const std::string& t : tests) filter += (filter.empty() ? "" : ":") + filter_literal(t);
  return filter;
}

std::string undecided_note(std::size_t rounds, const ExtraRounds& extra) {
  const std::string head = "INCONCLUSIVE after " + std::to_string(rounds) + " rounds; ";
  if (extra.budget_spent) return head + "budget of " + seconds_text(extra.budget_seconds) + " spent";
  // The rounds a side are capped too (RoundBudget::most_rounds): where that stops a test, a larger budget would not.
  return head + "deciding it needs more rounds than the budget of " + seconds_text(extra.budget_seconds) +
         " allows (or more than " + std::to_string(RoundBudget{}.most_rounds) + " a side)";
}

void note_undecided(std::vector<ComparisonRow>& rows, const ExtraRounds& extra) {
  for (ComparisonRow& row : rows)
    for (Finding& f : row.findings)
      if (f.timing && f.verdict == Verdict::inconclusive)
        f.detail += (f.detail.empty() ? "" : "; ") + undecided_note(std::min(row.base_rounds, row.head_rounds), extra);
}

std::string extra_rounds_line(const ExtraRounds& extra) {
  std::string line = "extra time: " + std::to_string(extra.rounds) + " round" + (extra.rounds == 1 ? "" : "s") +
                     " in " + seconds_text(extra.spent_seconds) + " of a " + seconds_text(extra.budget_seconds) +
                     " budget";
  std::string given;
  for (const auto& [test, rounds] : extra.given)
    given += (given.empty() ? "" : ", ") + test + " +" + std::to_string(rounds);
  return line + (given.empty() ? "" : ": " + given);
}

std::optional<double> duration_seconds(std::string_view text) {
  double value = 0.0;
  const char* const end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value, std::chars_format::fixed);
  if (error != std::errc() || !std::isfinite(value) || value < 0.0) return std::nullopt;
  const std::string_view unit(stop, static_cast<std::size_t>(end - stop));
  if (unit.empty() || unit == "s") return value;
  if (unit == "m") return value * 60.0;
  if (unit == "h") return value * 3600.0;
  return std::nullopt;
}

}  // namespace bankgate::gate
