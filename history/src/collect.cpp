// A run's history entries from its candidates and result records (collect.hpp).

#include <bankgate/history/collect.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include <bankgate/gate/protocol/test_result.hpp>
#include <bankgate/gate/rules/finding_json.hpp>
#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/store/candidates.hpp>
#include <bankgate/gate/store/parallel_map.hpp>

namespace bankgate::history {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
using nlohmann::json;

json line_json(const g::SourceLineFigures& l) {
  return {{"where", l.where()},
          {"inlined", l.inlined},
          {"kind", l.kind},
          {"opcode", l.opcode},
          {"executions", l.executions},
          {"wavefronts", l.wavefronts},
          {"ideal_wavefronts", l.ideal_wavefronts},
          {"sectors", l.sectors},
          {"ideal_sectors", l.ideal_sectors}};
}

// Folders holding candidates: `root` itself where it has GPU folders, else each subfolder that has (compare's
// rounds, round-1/, round-2/, ...).
std::vector<fs::path> candidate_roots(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return {};
  if (!g::gpu_folders(root).empty()) return {root};
  std::vector<fs::path> rounds;
  for (const auto& entry : fs::directory_iterator(root, ec))
    if (entry.is_directory() && !g::gpu_folders(entry.path()).empty()) rounds.push_back(entry.path());
  std::sort(rounds.begin(), rounds.end());
  return rounds;
}

struct Collected {
  TestEntry entry;
  json lines = json::object();
};

void add_candidate(Collected& c, const g::TestRecord& record) {
  const std::vector<std::string> labels = g::kernel_labels(record);
  const std::vector<const g::KernelRecord*> kernels = record.kernels();
  const bool first_round = c.entry.kernels.empty();
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    if (first_round) {
      c.entry.kernels.push_back(kernel_entry(*kernels[i], labels[i]));
      json lines = json::array();
      for (const g::SourceLineFigures& l : kernels[i]->lines) lines.push_back(line_json(l));
      if (!lines.empty()) c.lines[labels[i]] = lines;
    } else if (i < c.entry.kernels.size()) {  // a later round: its samples join the first's
      auto& samples = c.entry.kernels[i].samples_ns;
      samples.insert(samples.end(), kernels[i]->samples_ns.begin(), kernels[i]->samples_ns.end());
    }
  }
}

void add_record(Collected& c, const g::TestResultRecord& record) {
  c.entry.outcome = g::outcome_id(record.outcome);
  json findings = json::array();
  for (const g::Finding& f : record.findings) findings.push_back(g::to_json(f));
  c.entry.details_json = json{{"messages", record.messages}, {"findings", findings}}.dump();
}

// Read and parsed on the machine's cores, added in the folder's order.
void read_records(std::map<std::string, Collected>& tests, const fs::path& records) {
  std::error_code ec;
  std::vector<fs::path> files;
  for (auto it = fs::directory_iterator(records, ec); !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!name.starts_with(".") && name.ends_with(g::test_result_suffix)) files.push_back(it->path());
  }
  auto read = g::map_in_parallel<std::optional<g::TestResultRecord>>(
      files.size(), [&](std::size_t i) { return g::read_result_record(files[i]); });
  for (auto& outcome : read)
    if (const std::optional<g::TestResultRecord>& record = outcome.get()) {
      Collected& c = tests[record->suite + "." + record->test];
      add_record(c, *record);
    }
}

}  // namespace

std::string text_hash(std::string_view text) {
  std::uint64_t hash = 14695981039346656037ULL;
  for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

std::string code_hash(const std::vector<g::SourceLineFigures>& lines) {
  if (lines.empty()) return "";
  std::string listing;
  for (const g::SourceLineFigures& l : lines)
    listing += l.where() + "|" + l.inlined + "|" + l.kind + "|" + l.opcode + "\n";
  return text_hash(listing);
}

KernelEntry kernel_entry(const g::KernelRecord& kernel, const std::string& label) {
  KernelEntry k;
  k.kernel = label;
  k.code_hash = code_hash(kernel.lines);
  for (const auto& [metric, counter] : kernel.counters) k.counters[metric] = counter.value;
  if (kernel.timing) {
    k.median_ns = kernel.timing->median_ns;
    k.p10_ns = kernel.timing->p10_ns;
    k.p90_ns = kernel.timing->p90_ns;
    k.mad_ns = kernel.timing->mad_ns;
  }
  k.samples_ns = kernel.samples_ns;
  return k;
}

std::vector<TestEntry> collect_tests(const fs::path& candidates, const fs::path& records) {
  std::map<std::string, Collected> tests;
  for (const fs::path& root : candidate_roots(candidates))
    for (const g::GpuKey& gpu : g::gpu_folders(root))
      for (const auto& [suite, file] : g::read_candidates(root, gpu))
        for (const auto& [test, record] : file.tests) add_candidate(tests[suite + "." + test], record);
  if (!records.empty()) read_records(tests, records);
  std::vector<TestEntry> out;
  for (auto& [name, c] : tests) {
    c.entry.test = name;
    if (c.entry.outcome.empty()) c.entry.outcome = "measured";
    json details = c.entry.details_json.empty() ? json::object() : json::parse(c.entry.details_json);
    if (!c.lines.empty()) details["lines"] = c.lines;
    c.entry.details_json = details.dump();
    out.push_back(std::move(c.entry));
  }
  return out;
}

void apply_gate_summary(std::vector<TestEntry>& tests, const json& summary, const std::string& origin) {
  const auto refuse = [&](const std::string& what) {
    throw std::runtime_error(origin + " is no gate summary: " + what);
  };
  if (!summary.is_object() || summary.value("schema", json()) != "bankgate-summary")
    refuse("no schema bankgate-summary");
  const auto listed = summary.find("tests");
  if (listed == summary.end() || !listed->is_array()) refuse("no array \"tests\"");
  for (const json& test : *listed) {
    if (!test.is_object() || !test.contains("name") || !test["name"].is_string() || !test.contains("outcome") ||
        !test["outcome"].is_string() || !g::outcome_from_id(test["outcome"].get<std::string>()))
      refuse("a test without a name or a known outcome");
    const std::string name = test["name"].get<std::string>();
    auto entry = std::find_if(tests.begin(), tests.end(), [&](const TestEntry& t) { return t.test == name; });
    if (entry == tests.end()) entry = tests.insert(tests.end(), TestEntry{name, "", {}, "{}"});
    entry->outcome = test["outcome"].get<std::string>();
    json details = entry->details_json.empty() ? json::object() : json::parse(entry->details_json);
    details["findings"] = test.contains("changes") && test["changes"].is_array() ? test["changes"] : json::array();
    entry->details_json = details.dump();
  }
}

void fill_from_candidates(RunInfo& run, const fs::path& candidates) {
  for (const fs::path& root : candidate_roots(candidates))
    for (const g::GpuKey& gpu : g::gpu_folders(root))
      if (const std::optional<g::SuiteFile> file = g::read_first_candidate(root, gpu)) {
        const g::Provenance& p = file->provenance;
        const auto fill = [](std::string& field, const std::string& value) {
          if (field.empty()) field = value;
        };
        fill(run.commit, p.git_commit);
        run.dirty = run.dirty || p.git_dirty;
        fill(run.time, p.date);
        fill(run.runner.gpu_name, p.gpu_name);
        fill(run.runner.gpu_key, gpu.arch + "/" + gpu.model);
        fill(run.runner.driver, p.driver_release);
        fill(run.runner.cuda, p.cuda_runtime_version == 0 ? "" : std::to_string(p.cuda_runtime_version));
        return;
      }
}

}  // namespace bankgate::history
