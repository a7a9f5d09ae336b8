// Appending a finished run to the history store (history_append.hpp).

#include "history_append.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/protocol/settings.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/history/collect.hpp>
#include <bankgate/history/entry_json.hpp>
#include <bankgate/history/store.hpp>

#include "commands.hpp"
#include "console.hpp"
#include "process.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
namespace h = bankgate::history;

// The top of the repository `source` lies in: for a git worktree (compare-commits' checkouts) the main one's, so
// that every side of a comparison lands in one store.
fs::path repository_of(const fs::path& source) {
  const std::string common =
      program_output({"git", "-C", source.string(), "rev-parse", "--path-format=absolute", "--git-common-dir"});
  if (common.empty()) return {};
  const fs::path git_dir(common);
  return git_dir.filename() == ".git" ? git_dir.parent_path() : fs::path();
}

std::string git(const fs::path& source, std::vector<std::string> arguments) {
  if (source.empty()) return "";
  arguments.insert(arguments.begin(), {"git", "-C", source.string()});
  return program_output(arguments);
}

std::string run_key(const std::string& command) {
  const auto now =
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch());
  return command + "-" + std::to_string(::getpid()) + "-" + std::to_string(now.count());
}

// The UUIDs nvidia-smi lists for the GPUs this process sees (one, under a gate per GPU), comma-separated.
std::string gpu_uuids() {
  std::string out = program_output({"nvidia-smi", "--query-gpu=uuid", "--format=csv,noheader"});
  for (char& c : out)
    if (c == '\n') c = ',';
  return out;
}

}  // namespace

std::string history_location(const std::string& option, const fs::path& build) {
  std::string location = option.empty() ? g::history_location(g::process_environment).value_or("") : option;
  if (location == "off") return "";
  if (!location.empty()) return location;
  // The history subcommands name no build: the project is where they run.
  const fs::path source = build.empty() ? fs::current_path() : configured_source_dir(build);
  fs::path project = source.empty() ? fs::path() : repository_of(source);
  if (project.empty()) project = source;
  const fs::path folder = project.empty() ? g::protocol::results_root(build) : project / ".bankgate";
  return (folder / "history.sqlite").string();
}

namespace {

// Everything of a run's entries but the summary's verdicts.
h::RunEntry collected_entry(const FinishedRun& run) {
  h::RunEntry entry;
  entry.run.key = run_key(run.command);
  entry.run.command = run.command;
  entry.tests = h::collect_tests(run.candidates, run.records);
  h::fill_from_candidates(entry.run, run.candidates);
  const fs::path source = configured_source_dir(run.build);
  if (!entry.run.commit.empty())
    entry.run.parent = git(source, {"rev-parse", "--verify", "--quiet", entry.run.commit + "^"});
  entry.run.branch = git(source, {"rev-parse", "--abbrev-ref", "HEAD"});
  if (entry.run.time.empty()) entry.run.time = h::utc_now();
  entry.run.runner.gpu_uuid = run.gpu_uuids.valid() ? run.gpu_uuids.get() : gpu_uuids();
  return entry;
}

}  // namespace

h::RunEntry finished_run_entry(const FinishedRun& run) {
  h::RunEntry entry = run.collected.valid() ? run.collected.get() : collected_entry(run);
  if (!run.summary.is_null()) h::apply_gate_summary(entry.tests, run.summary, "the gate's summary");
  return entry;
}

namespace {

// Whether a run is to be appended: where the location cannot be made out, appending says why.
bool history_on(const std::string& option, const fs::path& build) {
  try {
    return !history_location(option, build).empty();
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

std::shared_future<std::string> ask_gpu_uuids(const std::string& option, const fs::path& build) {
  if (!history_on(option, build)) return {};
  return std::async(std::launch::async, [] { return gpu_uuids(); }).share();
}

std::shared_future<h::RunEntry> start_collecting(const std::string& option, const FinishedRun& run) {
  if (!history_on(option, run.build)) return {};
  return std::async(std::launch::async, [run] { return collected_entry(run); }).share();
}

std::optional<Appended> append_to_history(const std::string& option, const FinishedRun& run) {
  std::string location;
  h::RunEntry entry;
  try {
    location = history_location(option, run.build);
    if (location.empty()) return std::nullopt;
    entry = finished_run_entry(run);
    // A run that measured nothing (no GPU, no permission: every test skipped or not measured) is no point of any
    // series; keeping it would fill a GPU-free CI's history with empty runs.
    if (std::none_of(entry.tests.begin(), entry.tests.end(), [](const h::TestEntry& t) { return !t.kernels.empty(); }))
      return std::nullopt;
    const auto store = h::open_store(location);
    store->append(entry);
    progress("bankgate: history: " + g::counted(entry.tests.size(), "test") + " appended to " +
             g::terminal_line(store->where()));
    return Appended{location, entry.run.runner.gpu_key};
  } catch (const std::exception& e) {
    std::cerr << "bankgate: history: not appended (" << g::terminal_safe(e.what()) << "); the verdict stands";
    try {
      if (entry.tests.empty()) throw std::runtime_error("nothing collected");
      const fs::path kept = h::keep_run_file(g::protocol::history_pending(run.build), entry);
      std::vector<g::CommandWord> later{this_command(), "history", "import", kept.string()};
      if (!location.empty()) later.insert(later.end(), {"--history", h::shown_location(location)});
      std::cerr << "; the results are kept in " << g::terminal_line(kept.string()) << ": add them later with "
                << g::terminal_line(g::command_line(later)) << "\n";
    } catch (const std::exception& kept) {
      std::cerr << "; they could not be kept either (" << g::terminal_safe(kept.what()) << ")\n";
    }
  }
  return std::nullopt;
}

}  // namespace bankgate::cli
