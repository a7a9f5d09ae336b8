#include <bankgate/gate/reports/shard_merge.hpp>

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include <bankgate/gate/store/confined_folder.hpp>
#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/rules/shard_plan.hpp>

namespace bankgate::gate {
namespace {

namespace fs = std::filesystem;

// How deep below --shards a report folder may lie: DIR/<artifact>/ as CI services download them, with room for a
// folder or two more of the user's own.
constexpr int max_report_depth = 3;

std::string joined(const std::vector<std::string>& lines, const std::string& separator) {
  std::string out;
  for (const std::string& line : lines) out += (out.empty() ? "" : separator) + line;
  return out;
}

std::vector<std::string> string_list(const nlohmann::json& shard, const char* key, const std::string& origin) {
  const auto list = shard.find(key);
  if (list == shard.end() || !list->is_array() ||
      !std::all_of(list->begin(), list->end(), [](const nlohmann::json& s) { return s.is_string(); }))
    throw std::runtime_error(origin + ": \"shard\" has no \"" + key + "\" list of names");
  return list->get<std::vector<std::string>>();
}

int whole_number(const nlohmann::json& shard, const char* key, const std::string& origin) {
  const auto number = shard.find(key);
  if (number == shard.end() || !number->is_number_integer() || number->get<long long>() < 1 ||
      number->get<long long>() > max_shards)
    throw std::runtime_error(origin + ": \"shard\" has no \"" + key + "\" from 1 to " + std::to_string(max_shards));
  return number->get<int>();
}

// A report folder's summary.json, as a part of a split gate.
ShardReport read_report(const fs::path& folder) {
  const fs::path file = protocol::summary_json(folder);
  nlohmann::json doc;
  try {
    // A part's folder comes from a CI artifact: what it holds is read inside it, and a link out of it (its
    // summary, its plans and result records or candidates) is refused, never followed. Its ctest JUnit report
    // is read by nothing.
    const ConfinedFolder part(folder, "the shard's report folder");
    for (const fs::path& entry : {protocol::run_gtest_results(""), protocol::run_candidates("")}) part.locate(entry);
    doc = parse_input_json(part.read(file.filename()), file.string());
  } catch (const InputFileError& e) {
    throw ShardMergeError(e.what());
  } catch (const ConfinementError& e) {
    throw ShardMergeError(e.what());
  } catch (const nlohmann::json::exception& e) {
    throw ShardMergeError(file.string() + " is not JSON (" + e.what() + ")");
  }
  if (doc.is_object() && doc.contains("merged_shards"))
    throw ShardMergeError(file.string() +
                          " is a merge of shards' reports, not one shard's: write merged reports outside the "
                          "folder given to --shards");
  if (!doc.is_object() || !doc.contains("shard"))
    throw ShardMergeError(file.string() + " is the summary of a gate run without --shard I/N, no part of a split gate");
  try {
    return {folder, shard_record_from_json(doc["shard"], file.string())};
  } catch (const std::runtime_error& e) {
    throw ShardMergeError(e.what());
  }
}

// The report folders at or below `root`: those holding a summary.json, not searched further.
std::vector<fs::path> report_folders(const fs::path& root) {
  std::error_code ec;
  if (fs::exists(protocol::summary_json(root), ec)) return {root};
  std::vector<fs::path> folders;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    std::error_code entry_error;
    if (it->is_symlink(entry_error) || !it->is_directory(entry_error)) continue;  // nothing found through a link
    if (fs::exists(protocol::summary_json(it->path()), entry_error)) {
      folders.push_back(it->path());
      it.disable_recursion_pending();  // its candidates are the part's, not more parts
    } else if (it.depth() + 1 >= max_report_depth) {
      it.disable_recursion_pending();
    }
  }
  if (ec) throw ShardMergeError("cannot read the folder " + root.string() + ": " + ec.message());
  std::sort(folders.begin(), folders.end());
  return folders;
}

std::string label(const ShardReport& r) {
  return r.folder.string() + " (shard " + std::to_string(r.record.index) + "/" + std::to_string(r.record.count) + ")";
}

// Every part of 1..N once; their labels by number.
std::vector<std::string> numbering_problems(const std::vector<ShardReport>& reports, int count) {
  std::map<int, std::vector<std::string>> by_index;
  for (const ShardReport& r : reports) by_index[r.record.index].push_back(r.folder.string());
  std::vector<std::string> problems;
  for (int index = 1; index <= count; ++index) {
    const auto found = by_index.find(index);
    const std::string part = "shard " + std::to_string(index) + " of " + std::to_string(count);
    if (found == by_index.end())
      problems.push_back(part +
                         " is missing: no report folder holds it (its job failed before its gate wrote reports, "
                         "or its folder was not downloaded; the job's log says which)");
    else if (found->second.size() > 1)
      problems.push_back(part + " is present " + std::to_string(found->second.size()) +
                         " times: " + joined(found->second, ", "));
  }
  return problems;
}

// Every suite of the one catalogue in exactly one part.
std::vector<std::string> suite_problems(const std::vector<ShardReport>& reports) {
  std::vector<std::string> problems;
  const std::vector<std::string>& catalogue = reports.front().record.catalogue;
  for (const ShardReport& r : reports)
    if (r.record.catalogue != catalogue)
      problems.push_back(label(r) + " and " + label(reports.front()) +
                         " are parts of different splits: their catalogues of " +
                         std::to_string(r.record.catalogue.size()) + " and " + std::to_string(catalogue.size()) +
                         " suites differ (gates of different commits, --filter or --shard-durations)");
  if (!problems.empty()) return problems;
  std::map<std::string, std::vector<int>> parts_of;
  for (const ShardReport& r : reports)
    for (const std::string& suite : r.record.suites) parts_of[suite].push_back(r.record.index);
  for (const std::string& suite : catalogue)
    if (!parts_of.count(suite)) problems.push_back("suite " + suite + " of the catalogue was run by no shard");
  for (const auto& [suite, parts] : parts_of)
    if (parts.size() > 1)
      problems.push_back("suite " + suite + " was run by " + std::to_string(parts.size()) + " shards");
    else if (!std::binary_search(catalogue.begin(), catalogue.end(), suite))
      problems.push_back("suite " + suite + " was run by shard " + std::to_string(parts.front()) +
                         " but is not in the catalogue");
  return problems;
}

}  // namespace

nlohmann::json to_json(const ShardRecord& shard) {
  return {{"index", shard.index}, {"count", shard.count}, {"suites", shard.suites}, {"catalogue", shard.catalogue}};
}

ShardRecord shard_record_from_json(const nlohmann::json& shard, const std::string& origin) {
  if (!shard.is_object()) throw std::runtime_error(origin + ": \"shard\" is not an object");
  ShardRecord record;
  record.index = whole_number(shard, "index", origin);
  record.count = whole_number(shard, "count", origin);
  record.suites = string_list(shard, "suites", origin);
  record.catalogue = string_list(shard, "catalogue", origin);
  if (record.index > record.count)
    throw std::runtime_error(origin + ": \"shard\" says part " + std::to_string(record.index) + " of " +
                             std::to_string(record.count));
  std::sort(record.suites.begin(), record.suites.end());
  std::sort(record.catalogue.begin(), record.catalogue.end());
  return record;
}

std::vector<ShardReport> find_shard_reports(const fs::path& root) {
  std::error_code ec;
  if (!fs::is_directory(root, ec))
    throw ShardMergeError(root.string() +
                          " is not a folder: give --shards the folder the shards' report folders were "
                          "downloaded into");
  const std::vector<fs::path> folders = report_folders(root);
  if (folders.empty())
    throw ShardMergeError("no gate report (a folder with summary.json) at or below " + root.string() + ", to " +
                          std::to_string(max_report_depth) +
                          " folders deep: download every shard's <build>/bankgate/gate/ there");
  std::vector<ShardReport> reports;
  std::vector<std::string> problems;
  for (const fs::path& folder : folders) {
    try {
      reports.push_back(read_report(folder));
    } catch (const ShardMergeError& e) {
      problems.push_back(e.what());
    }
  }
  if (!problems.empty()) throw ShardMergeError(joined(problems, "\n"));
  return reports;
}

void check_shard_reports(const std::vector<ShardReport>& reports) {
  if (reports.empty()) throw ShardMergeError("no shard's report to merge");
  std::map<int, std::vector<std::string>> by_count;
  for (const ShardReport& r : reports) by_count[r.record.count].push_back(r.folder.string());
  std::vector<std::string> problems;
  if (by_count.size() > 1) {
    std::vector<std::string> counts;
    for (const auto& [count, folders] : by_count)
      counts.push_back("N = " + std::to_string(count) + " in " + joined(folders, ", "));
    problems.push_back("the shards disagree on their number N: " + joined(counts, "; ") +
                       " (one runner matrix gives every job the same N)");
  }
  if (problems.empty()) problems = numbering_problems(reports, reports.front().record.count);
  if (problems.empty()) problems = suite_problems(reports);
  if (!problems.empty())
    throw ShardMergeError("the shards' reports are not one whole split gate:\n  " + joined(problems, "\n  "));
}

GateSummary merge_shard_reports(const std::vector<ShardReport>& reports, const GateInputs& common) {
  check_shard_reports(reports);
  std::vector<const ShardReport*> order;
  for (const ShardReport& r : reports) order.push_back(&r);
  std::sort(order.begin(), order.end(),
            [](const ShardReport* a, const ShardReport* b) { return a->record.index < b->record.index; });
  GateSummary merged;
  merged.provenance = provenance_now();
  merged.merged_shards = reports.front().record.count;
  std::map<std::string, std::string> reported_by;
  std::vector<std::string> doubled;
  for (const ShardReport* r : order) {
    const std::string part = "shard " + std::to_string(r->record.index) + "/" + std::to_string(r->record.count);
    if (r->record.suites.empty()) {
      merged.problems.push_back(empty_part_problem(r->record.index, r->record.count, r->record.catalogue.size()));
      continue;
    }
    GateInputs in = common;
    in.gtest_results = protocol::run_gtest_results(r->folder);
    in.candidates = protocol::run_candidates(r->folder);
    GateSummary summary = summarize(in);
    merge_provenance(merged.provenance, summary.provenance);
    for (const std::string& problem : summary.problems) merged.problems.push_back(part + ": " + problem);
    for (TestResult& t : summary.tests) {
      const auto [first, fresh] = reported_by.emplace(t.name, part);
      if (!fresh) doubled.push_back(t.name + " (" + first->second + " and " + part + ")");
      merged.tests.push_back(std::move(t));
    }
  }
  if (!doubled.empty())
    throw ShardMergeError("tests reported by two shards: " + joined(doubled, ", ") +
                          "; the shards' gates split different "
                          "catalogues (different builds of one commit?)");
  return merged;
}

}  // namespace bankgate::gate
