#pragma once
// A same-runner comparison's extra time: after the default rounds, the tests still INCONCLUSIVE get more rounds,
// only they, base and head alternating as before, within a time budget. Which tests and how many rounds is
// decided here, round by round, from each test's noise (rounds_to_decide) and the wall time the rounds took;
// the command only measures what a plan names.
//
// A round's cost is modelled per test: the last round's wall time over the tests it measured. Tests are chosen
// cheapest first (fewest rounds still needed) while the rounds they need fit in the budget left. First come the
// tests whose change, as judged, enough rounds would decide; then, with the budget they leave, those that would be
// decided if their change lay one standard error nearer to none. An unchanged test whose change so far happens to
// lie near the floor looks undecidable as it stands, yet more rounds usually shrink that change. A test that would
// need more rounds than the budget allows, or than `most_rounds` a side, even so, gets none: its noise, not the
// number of rounds, is what keeps it undecided. After each round the tests are judged again: a test decided early
// stops, and a test whose estimate grew may drop out. INCONCLUSIVE stays the answer when the budget runs out.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <bankgate/gate/rules/round_judgement.hpp>
#include <bankgate/gate/rules/run_comparison.hpp>

namespace bankgate::gate {

struct UndecidedTest {
  std::string name;  // Suite.test
  RoundDecision decision;
};

// The undecided tests of a comparison, with the decision of their rounds: those whose duration, judged by its
// rounds' noise, is INCONCLUSIVE. In name order.
std::vector<UndecidedTest> undecided_tests(const PooledRuns& base, const PooledRuns& head,
                                           const NoisePolicy& policy = {});

struct RoundBudget {
  double seconds_left = 0.0;
  double seconds_per_test = 0.0;  // one test's share of a round of base and head, as last measured
  std::size_t most_rounds = 50;   // per side, whatever the budget
};

struct ExtraRoundPlan {
  std::vector<std::string> measure;       // the next round's tests, in name order; none: stop
  std::vector<std::string> out_of_reach;  // undecided, and not planned: the rounds they need (as judged, or with
                                          // the change nearer to none) are more than the budget left buys
  double forecast_seconds = 0.0;          // the next round's expected wall time
  bool budget_spent = false;              // the budget left does not pay for one test's round
};

ExtraRoundPlan plan_extra_round(const std::vector<UndecidedTest>& undecided, const RoundBudget& budget,
                                const NoisePolicy& policy = {});

// One test's share of a round that took `round_seconds` and measured `tests` tests (at least one).
double seconds_per_test(double round_seconds, std::size_t tests);

// The filter that selects exactly these tests ("A.x:B.y"), each name as filter_literal writes it.
std::string filter_naming(const std::vector<std::string>& tests);

// What the extra time did, for the reports.
struct ExtraRounds {
  double budget_seconds = 0.0;
  double spent_seconds = 0.0;
  std::size_t rounds = 0;                    // extra rounds measured
  std::map<std::string, std::size_t> given;  // extra rounds per test that got any
  bool budget_spent = false;                 // the last plan could not pay for one more test's round
};

// The words an undecided test's verdict carries after extra time: "INCONCLUSIVE after 9 rounds; budget of
// 60 s spent", or, where the budget was left but could not buy enough rounds (or the cap of rounds a side
// stopped it), that instead.
std::string undecided_note(std::size_t rounds, const ExtraRounds& extra);

// Appends undecided_note to the detail of each duration still INCONCLUSIVE in `rows`.
void note_undecided(std::vector<ComparisonRow>& rows, const ExtraRounds& extra);

// One line on what the extra time did: its budget and spending, and each test's extra rounds.
std::string extra_rounds_line(const ExtraRounds& extra);

// A duration as seconds: a non-negative number, optionally followed by s, m or h ("90", "90s", "1.5m", "1h");
// nullopt for anything else.
std::optional<double> duration_seconds(std::string_view text);

}  // namespace bankgate::gate
