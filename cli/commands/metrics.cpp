// metrics: the counters the gate reads: their metric names, comma-separated (for ncu --metrics), or the whole
// metric table as JSON or markdown.

#include <iostream>
#include <memory>
#include <span>

#include <nlohmann/json.hpp>

#include <bankgate/gate/text/number_format.hpp>
#include <bankgate/gate/reports/output_json.hpp>
#include <bankgate/metrics.hpp>

#include "../commands.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;

enum class MetricsFormat { list, json, markdown };

std::string tolerance_text(const bankgate::MetricTraits& m) {
  if (m.tolerance.relative == 0.0) return "exact";
  return "±" + g::format_number(100.0 * m.tolerance.relative) + "%";
}

// The "What is counted" table of docs/measurement.md, from the metric table (a test checks the page against it).
void metrics_markdown(std::span<const bankgate::MetricTraits> table) {
  std::cout << "| counter | Nsight Compute name | nvprof-era name | gated |\n| --- | --- | --- | --- |\n";
  for (const bankgate::MetricTraits& m : table)
    std::cout << "| " << m.display << " (" << bankgate::to_string(m.group) << ") | `" << m.name << "`"
              << (m.name == bankgate::metric::resident_blocks_per_sm
                      ? " (ours: the least of Nsight Compute's `launch__occupancy_limit_*`)"
                  : m.name == bankgate::metric::local_memory_per_thread
                      ? " (ours: the driver's figure; Nsight Compute has none)"
                  : m.source == bankgate::CounterSource::launch ? " (from the driver, no counter)"
                  : m.source == bankgate::CounterSource::tma_traffic
                      ? " (hardware: a further run, for kernels with TMA instructions only)"
                      : "")
              << " | " << (m.nvprof.empty() ? "—" : "`" + std::string(m.nvprof) + "`") << " | " << tolerance_text(m)
              << " |\n";
  std::cout << "\n| ratio | from | nvprof-era name |\n| --- | --- | --- |\n";
  for (const bankgate::RatioTraits& r : bankgate::ratio_table())
    std::cout << "| " << r.display << " (`" << r.key << "`) | " << display_name(r.numerator) << " / "
              << display_name(r.denominator) << " | " << (r.nvprof.empty() ? "—" : "`" + std::string(r.nvprof) + "`")
              << " |\n";
}

int metrics(MetricsFormat format, bool hardware) {
  const auto table = hardware ? bankgate::hardware_counter_table() : bankgate::counter_table();
  if (format == MetricsFormat::json) {
    nlohmann::json list = nlohmann::json::array();
    for (const bankgate::MetricTraits& m : table)
      list.push_back({{"name", m.name},
                      {"display_name", m.display},
                      {"nvprof_name", m.nvprof},
                      {"group", bankgate::to_string(m.group)},
                      {"source", m.source == bankgate::CounterSource::launch        ? "launch"
                                 : m.source == bankgate::CounterSource::tma_traffic ? "tma_traffic"
                                                                                    : "sass"},
                      {"default_relative_tolerance", m.tolerance.relative},
                      {"tolerance_reason", m.tolerance.reason},
                      {"explained_by_lines_of_kind", m.kind}});
    std::cout << g::json_text(list) << "\n";
    return exit_ok;
  }
  if (format == MetricsFormat::markdown) {
    metrics_markdown(table);
    return exit_ok;
  }
  // The range profiler's metrics only (with the TMA traffic pass's): the list ncu --metrics takes.
  auto names =
      bankgate::metric_names(hardware ? bankgate::CounterSet::hardware : bankgate::CounterSet::sass_instrumented);
  if (!hardware)
    for (const std::string& name : bankgate::metric_names(bankgate::CounterSet::tma_traffic)) names.push_back(name);
  for (std::size_t i = 0; i < names.size(); ++i) std::cout << (i ? "," : "") << names[i];
  std::cout << "\n";
  return exit_ok;
}

}  // namespace

Runner define_metrics(CLI::App& command) {
  struct Choice {
    bool json = false, markdown = false;
    std::string set = "sass";
  };
  const auto c = std::make_shared<Choice>();
  command.add_flag("--json", c->json, "as a JSON list: names, display and nvprof names, group, default tolerance");
  command.add_flag("--markdown", c->markdown, "as a markdown table of what is counted");
  command.add_option("--set", c->set, "sass (the gate's exact counters) or hardware (the L1's own counters)")
      ->check(CLI::IsMember({"sass", "hardware"}));
  command.footer(exit_codes_of({}));
  return [c] {
    return metrics(c->json       ? MetricsFormat::json
                   : c->markdown ? MetricsFormat::markdown
                                 : MetricsFormat::list,
                   c->set == "hardware");
  };
}

}  // namespace bankgate::cli
