// bankgate: the command for a project's whole loop, against any project's build folder.
//
//   bankgate gate      build, run the GPU suites in strict mode against the baselines, verdict and reports
//   bankgate record    build, run the GPU suites, keep what they measured as candidates, show them against the baselines
//   bankgate review    show candidates against the baselines (old / new / change)
//   bankgate promote   write reviewed candidates into the baselines
//   bankgate refresh   record, then promote (what a failure message names)
//   bankgate compare   judge a head build's candidates against a base build's, measured on one machine
//   bankgate compare-commits   compare for two commits: each checked out in a git worktree and built first
//   bankgate summary   the gate's verdict and reports from the files a run left (plans, result records, candidates), or
//                      from the report folders of a gate split over runners (--shards)
//   bankgate metrics   the collector's metric names
//   bankgate check-baselines  read every committed baseline with the gate's reader, without a GPU
//   bankgate recover   roll back what an interrupted promotion left in a baselines folder
//   bankgate kernel-name    the bare name results give a demangled kernel name (for scripts reading other tools)
//   bankgate readme-table   a README table of expected against measured transactions per request
//   bankgate run-suite, verdict, discover   a GPU suite as one process, one ctest entry per test (used by the
//                                           tests bankgate_add_gpu_suite() registers)
//   bankgate protocol  the names bankgate's processes share (gate/protocol/run_protocol.hpp), for scripts
//
// Exit codes (gate/protocol/run_protocol.hpp): 0 done; 1 regression; 2 could not measure or read; 3 build, set-up or
// refusal; 4 baselines of another schema version (readme-table); 5 compare inconclusive; 64 usage error. Each
// subcommand's --help lists those it can return.
//
// --quiet and --color (auto, always, never; NO_COLOR) go before the subcommand or after it: console.hpp.

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>

#include <bankgate/gate/text/text.hpp>

#include "build_commit.hpp"
#include "command_line.hpp"
#include "commands.hpp"
#include "console.hpp"
#include "usage_errors.hpp"

namespace cli = bankgate::cli;

namespace {

// An error's message as the terminal shows it. Messages quote file names and fields from outside: their controls
// are shown escaped, never obeyed, and every line after the first is indented under "bankgate:", so that a
// newline in a quoted name cannot start a line that poses as one of bankgate's own.
std::string shown(const char* message) {
  std::string out;
  for (const char c : bankgate::gate::terminal_safe(message))
    out += c == '\n' ? std::string("\n  ") : std::string(1, c);
  return out;
}

int run(const cli::CommandLine::Defined& subcommand) {
  try {
    return subcommand.run();
  } catch (const cli::Refusal& e) {
    std::cerr << "bankgate: refused: " << shown(e.what()) << "\n";
    return cli::exit_setup;
  } catch (const cli::StepFailure& e) {
    std::cerr << "bankgate: " << shown(e.what()) << "\n";
    return cli::exit_setup;
  } catch (const std::exception& e) {
    std::cerr << "bankgate: " << shown(e.what()) << "\n";
    if (*subcommand.entry->after_failure) std::cerr << subcommand.entry->after_failure << "\n";
    return cli::exit_not_measured;
  }
}

// Data asked for on standard output ("--json -"): the human text goes to standard error while the command runs.
class HumanTextAside {
 public:
  HumanTextAside(int argc, char** argv)
      : active_(std::any_of(argv + 1, argv + argc, [](const char* word) { return std::string(word) == "-"; })) {
    if (!active_) return;
    cli::standard_output() = std::cout.rdbuf();
    std::cout.rdbuf(std::cerr.rdbuf());
  }
  ~HumanTextAside() {
    if (active_) std::cout.rdbuf(cli::standard_output());
  }
  // Where the human text goes: standard error while standard output holds data.
  int human_text_fd() const { return active_ ? STDERR_FILENO : STDOUT_FILENO; }
  HumanTextAside(const HumanTextAside&) = delete;
  HumanTextAside& operator=(const HumanTextAside&) = delete;

 private:
  bool active_;
};

// Parses the command line; nothing where it asks for a subcommand to run, else the code to exit with once help
// or a usage error has been printed. Mistakes are said in the user's words where CLI11's would mislead.
std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  if (const std::string mistake = cli::misspelt_before_subcommand(app, argc, argv); !mistake.empty()) {
    std::cerr << mistake;
    return cli::exit_usage;
  }
  try {
    app.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::ParseError& e) {
    // A word CLI11 did not expect explains an error better than what it says then (e.g. "--base is required"
    // for a misspelt --base), so it is named first; help and --version are no errors.
    const std::string unexpected = e.get_exit_code() == 0 ? "" : cli::unexpected_words(app, argc, argv);
    if (!unexpected.empty()) {
      std::cerr << unexpected;
      return cli::exit_usage;
    }
    const int shown = app.exit(e);  // prints help (exit 0) or the error with a hint
    return shown == 0 ? cli::exit_ok : cli::exit_usage;
  }
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "bankgate: gate what CUDA kernels do with memory (shared, global, local, cp.async, ldmatrix), their "
      "instruction counts and their durations against committed baselines",
      "bankgate"};
  app.set_version_flag("--version",
                       std::string("bankgate ") + BANKGATE_VERSION + " (commit " + bankgate::cli::build_commit() + ")",
                       "print bankgate's version and the commit it was built from, and exit");
  cli::CommandLine line;
  cli::define_command_line(app, line);
  if (const std::optional<int> done = parse(app, argc, argv)) return *done;
  cli::this_command();  // before a build can replace this executable (commands.hpp)
  const HumanTextAside aside(argc, argv);
  cli::set_up_console(line.quiet, line.colour, aside.human_text_fd());
  // Parsing requires one subcommand, so a command line without one has already been refused; this is a guard.
  const cli::CommandLine::Defined* chosen = line.chosen();
  if (chosen == nullptr) {
    std::cerr << "bankgate: no subcommand given; run bankgate --help for the subcommands\n";
    return cli::exit_usage;
  }
  return run(*chosen);
}
