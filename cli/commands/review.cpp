// review (alias table): show candidates against the baselines: old, new, change, verdict. record ends with it.

#include <algorithm>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include <bankgate/gate/reports/console_tables.hpp>
#include <bankgate/gate/rules/baseline_review.hpp>
#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/reports/output_json.hpp>
#include <bankgate/gate/text/text.hpp>

#include "../baseline_reading.hpp"
#include "../commands.hpp"
#include "../console.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {

namespace fs = std::filesystem;
namespace g = bankgate::gate;

int review(const ReviewOptions& o, std::ostream& out) {
  const fs::path dir = candidates_folder(o.candidates, o.build);
  const g::GpuKey gpu = candidate_gpu(dir, o.gpu);
  const auto candidates = g::read_candidates(dir, gpu);
  const auto baselines = read_baselines(o.baselines, configured_source_dir(o.build), gpu, candidates, out);
  const auto rows = g::review(candidates, baselines);
  out << "GPU " << g::terminal_line(gpu.arch + "/" + gpu.model) << ": measured (new) in "
      << g::terminal_line(dir.string()) << " against the baselines (old)\n"
      << g::render(rows, o.changes_only, console().palette);
  const bool failed = std::any_of(rows.begin(), rows.end(),
                                  [](const g::ReviewRow& r) { return !r.correct || g::is_failure(r.finding.verdict); });
  const int exit_code = failed ? exit_regression : exit_ok;
  if (!o.json.empty()) {
    g::RunProvenance provenance = g::provenance_now();
    for (const auto& [suite, file] : candidates) g::note_measurement(provenance, file.provenance);
    for (const auto& [suite, file] : baselines) g::note_baseline(provenance, file.provenance);
    write_json(o.json, g::review_document(rows, gpu, provenance, exit_code));
  }
  return exit_code;
}

Runner define_review(CLI::App& command) {
  const auto o = std::make_shared<ReviewOptions>();
  command.alias("table");
  add_candidate_options(command, o->build, o->candidates, o->baselines, o->gpu);
  command.add_flag("--changes-only", o->changes_only, "leave out rows that did not change");
  command.add_option("--json", o->json, "also write the rows as JSON here");
  command.footer(exit_codes_of({{exit_regression, "a candidate left its baseline's tolerance, or its output was wrong"},
                                exit_code::unreadable,
                                exit_code::refused}));
  return [o] { return review(*o, std::cout); };
}

}  // namespace bankgate::cli
