// history import: runs from earlier artifacts appended to the history store. A CI job's kept report folder (a
// gate's: candidates/, gtest-results/ and summary.json, whose verdicts are the gate's own; or that summary.json,
// naming its folder), a candidates folder, or the file a run kept when its store could not be reached
// (history_append.hpp). Importing a run twice adds it once.

#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/history/collect.hpp>
#include <bankgate/history/entry_json.hpp>

#include "../commands.hpp"
#include "../history_commands.hpp"
#include "../options.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
namespace h = bankgate::history;

struct ImportOptions {
  std::vector<fs::path> paths;
  std::string history;
  std::string parent, branch;  // what the artifacts cannot say of their commit
};

// A folder of artifacts as one run.
h::RunEntry folder_run(const fs::path& folder, const ImportOptions& o) {
  const bool report_folder = fs::is_directory(g::protocol::run_candidates(folder));
  const fs::path candidates = report_folder ? g::protocol::run_candidates(folder) : folder;
  const fs::path records = report_folder ? g::protocol::run_gtest_results(folder) : fs::path();
  h::RunEntry run;
  run.tests = h::collect_tests(candidates, records);
  std::error_code ec;
  if (const fs::path summary = g::protocol::summary_json(folder); report_folder && fs::exists(summary, ec))
    h::apply_gate_summary(run.tests, g::parse_input_json(g::read_input_file(summary), summary.string()),
                          summary.string());
  if (run.tests.empty())
    throw std::runtime_error(folder.string() +
                             " holds no candidates: give a gate's report folder (with candidates/), a candidates "
                             "folder or a history run file");
  h::fill_from_candidates(run.run, candidates);
  run.run.command = "import";
  // Everything the folder holds names the run (its commit, GPU, time, and every figure and verdict): the same folder
  // imported again is recognised, and two gates of one commit whose candidates bear one time are still two runs.
  run.run.key = "import-" + h::text_hash(h::run_file_json(run));
  run.run.parent = o.parent;
  run.run.branch = o.branch;
  return run;
}

h::RunEntry run_of(const fs::path& path, const ImportOptions& o) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return folder_run(path, o);
  // A gate's summary.json stands for the report folder it is in.
  const fs::path folder = fs::absolute(path).parent_path();
  if (path.filename() == g::protocol::summary_json("").filename() &&
      fs::is_directory(g::protocol::run_candidates(folder), ec))
    return folder_run(folder, o);
  const std::string text = g::read_input_file(path);
  return h::parse_run_file(text, path.string());
}

int import_runs(const ImportOptions& o) {
  const auto store = open_history_to_write(o.history);
  int added = 0;
  for (const fs::path& path : o.paths) {
    const h::RunEntry run = run_of(path, o);
    const bool new_run = store->append(run);
    added += new_run ? 1 : 0;
    std::cout << g::terminal_line(path.string()) << ": "
              << (new_run ? std::to_string(run.tests.size()) + " test(s) of commit " + short_commit(run.run.commit) +
                                " appended"
                          : std::string("already in the history (run ") + g::terminal_line(run.run.key) + ")")
              << "\n";
  }
  std::cout << added << " run(s) appended to " << g::terminal_line(store->where()) << "\n";
  return exit_ok;
}

}  // namespace

Runner define_history_import(CLI::App& command) {
  const auto o = std::make_shared<ImportOptions>();
  command
      .add_option("paths", o->paths,
                  "a gate's report folders (or their summary.json), candidates folders or history run files")
      ->required()
      ->check(CLI::ExistingPath);
  command.add_option("--parent", o->parent, "the parent of the imported runs' commit, where the artifacts do not say");
  command.add_option("--branch", o->branch, "the branch of the imported runs");
  return store_part(command, o->history, [o] { return import_runs(*o); });
}

}  // namespace bankgate::cli
