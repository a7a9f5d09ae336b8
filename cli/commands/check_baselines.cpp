// check-baselines: read every committed baseline with the gate's reader (no GPU needed): schema, names, tolerances
// and their reasons, ranges; against a base branch, every change to them named, an unaccepted loosening failing.

#include <iostream>
#include <memory>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/rules/baseline_changes.hpp>
#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/store/baseline_transaction.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/text/text.hpp>

#include "../base_baselines.hpp"
#include "../baseline_reading.hpp"
#include "../commands.hpp"
#include "../options.hpp"
#include "../process.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;

// How the first baselines of a folder are recorded, for a check before there are any.
std::string first_baselines_advice(const fs::path& root) {
  std::vector<std::string> refresh{this_command(), "refresh", "--build", "BUILD", "--new-gpu"};
  if (root != "baselines") refresh.insert(refresh.end(), {"--baselines", root.string()});
  return ": record the first ones on a machine with the GPU with `" + as_command_line(refresh) +
         "` (BUILD: your build folder), review them and commit the folder";
}

// What this change did to the baselines against the base branch's copy (base_baselines.hpp): every change named,
// the loosenings a reviewer has not accepted counted and returned.
std::size_t show_baseline_changes(const g::ConfinedFolder& folder, const std::map<fs::path, g::SuiteFile>& head,
                                  const BaseOptions& o, const std::set<std::string>& known) {
  const fs::path& root = folder.root();
  const std::optional<BaseRef> ref = find_base(root, o.base_ref);
  if (!ref) {
    std::cout << root.string() << ": changes to the baselines are not checked (--base-ref " << no_base << ")\n";
    return 0;
  }
  const BaseBaselines base(root, *ref);
  std::size_t loosened = 0, changes = 0;
  const auto say = [&](const std::string& where, const std::string& text, bool loosens) {
    const bool fails = loosens && !o.accept_loosened;
    loosened += fails ? 1 : 0;
    ++changes;
    std::cout << (fails     ? "LOOSENED "
                  : loosens ? "loosened, accepted "
                            : "changed ")
              << g::terminal_safe(where) << ": " << g::terminal_safe(text) << "\n";
  };
  for (const auto& change : base.folder_changes()) say(root.string(), change.text, change.loosens);
  for (const fs::path& relative : base.files()) {
    const std::optional<std::string> text = base.text(relative);
    g::SuiteFile before;
    try {
      if (!text) continue;
      before = g::parse_suite_file(*text, "the base's " + relative.string(), &known);
    } catch (const g::BaselineError&) {
      continue;  // not a baseline this bankgate reads (another schema): the file as it is now is all there is
    }
    const std::string where = folder.display(relative).string();
    if (const auto now = head.find(relative); now != head.end()) {
      for (const g::BaselineChange& c : g::baseline_changes(before, now->second))
        say(where, before.suite + "." + c.test + ": " + c.text(), c.loosens);
    } else if (!folder.kind(relative)) {
      say(where,
          "its " + g::counted(before.tests.size(), "test") + (before.tests.size() == 1 ? " is" : " are") +
              " no longer gated: the file was removed in this change",
          true);
    }
  }
  std::cout << root.string() << ": against " << ref->named << " (" << ref->commit.substr(0, 12) << "): " << changes
            << " changes, " << loosened << " loosening the gate"
            << (loosened ? " unaccepted (review them; --accept-loosened passes them)" : "") << "\n";
  return loosened;
}

// Every file below the GPU folders is read inside the folder: a link that leads out, a folder reached through a
// link, a FIFO or a file in the wrong place is a problem named here, never followed.
int check_baselines(const fs::path& root, const BaseOptions& base) {
  const auto known = known_metrics();
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(root, ec)))
    throw std::runtime_error(root.string() + " does not exist: no baselines have been recorded there yet" +
                             first_baselines_advice(root) + "; or give the folder that holds them with --baselines");
  if (!fs::is_directory(root, ec))
    throw std::runtime_error(root.string() +
                             " is not a folder of baselines: give the folder that holds them with --baselines");
  const g::BaselineFolder baselines(root);  // refuses a folder an interrupted promotion left half-written
  const g::ConfinedFolder& folder = *baselines.folder();
  std::size_t tests = 0;
  std::map<fs::path, g::SuiteFile> read;
  std::vector<std::string> problems;
  if (const auto stray = stray_journal(folder)) problems.push_back(*stray);
  for (const fs::path& leftover : g::leftover_staging_files(folder))
    problems.push_back(folder.display(leftover).string() +
                       " is a staging file an interrupted promotion left (killed before it journaled it): `" +
                       g::recover_command(root) + "` removes it; never commit it");
  const auto is_json = [](const std::string& name) { return name.ends_with(".json"); };
  for (const g::GpuKey& gpu : baselines.gpus(problems)) {
    // Links are listed by their own names, so that a link from one suite's name to another's file is caught.
    for (const fs::path& relative :
         folder.files_below(gpu.relative_dir(), is_json, problems, /*links_as_entries=*/true)) {
      try {
        g::SuiteFile file = g::read_suite_file(folder, relative, &known);
        const fs::path expected = g::suite_file_relative(gpu, file.suite);
        const bool in_place =
            relative == expected || (folder.kind(expected) && folder.locate(expected).relative == relative);
        if (!(file.gpu == gpu) || !in_place)
          throw g::BaselineError(folder.display(relative).string() + ": holds " + file.suite + " for " + file.gpu.arch +
                                 "/" + file.gpu.model + ", which belongs in " + folder.display(expected).string());
        tests += file.tests.size();
        read.emplace(relative, std::move(file));
      } catch (const std::exception& e) {
        problems.push_back(e.what());
      }
    }
  }
  // A problem names a file of the folder, whatever its name holds: each on one line, escaped.
  for (const std::string& p : problems) std::cerr << "bankgate: " << g::terminal_line(p) << "\n";
  std::cout << g::terminal_line(root.string()) << ": " << g::counted(read.size(), "baseline file") << " with "
            << g::counted(tests, "test") << " read, " << problems.size() << " unusable\n";
  if (read.empty() && problems.empty())
    std::cerr << "bankgate: " << g::terminal_line(root.string()) << " holds no baselines yet"
              << first_baselines_advice(root) << "\n";
  const std::size_t loosened = show_baseline_changes(folder, read, base, known);
  if (!problems.empty() || read.empty()) return exit_not_measured;
  return loosened > 0 ? exit_regression : exit_ok;
}

}  // namespace

Runner define_check_baselines(CLI::App& command) {
  struct Options {
    fs::path root = "baselines";
    BaseOptions base;
  };
  const auto o = std::make_shared<Options>();
  command.add_option("--baselines", o->root, "baselines folder")->capture_default_str();
  add_base_options(command, o->base);
  command.footer(exit_codes_of({{exit_regression, "a change loosens the baselines against the base, unaccepted"},
                                {exit_not_measured, "a baseline is unusable, or there is none"}}));
  return [o] { return check_baselines(o->root, o->base); };
}

}  // namespace bankgate::cli
