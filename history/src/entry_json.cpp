// A run's entries as a JSON file and back (entry_json.hpp).

#include <bankgate/history/entry_json.hpp>

#include <nlohmann/json.hpp>

#include <bankgate/gate/store/atomic_file.hpp>

namespace bankgate::history {
namespace {

using nlohmann::json;

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

std::optional<double> read_optional(const json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() || it->is_null() ? std::nullopt : std::optional<double>(it->get<double>());
}

json kernel_json(const KernelEntry& k) {
  return {{"kernel", k.kernel},
          {"code_hash", k.code_hash},
          {"counters", k.counters},
          {"median_ns", optional_number(k.median_ns)},
          {"p10_ns", optional_number(k.p10_ns)},
          {"p90_ns", optional_number(k.p90_ns)},
          {"mad_ns", optional_number(k.mad_ns)},
          {"samples_ns", k.samples_ns}};
}

KernelEntry kernel_of(const json& j) {
  KernelEntry k;
  k.kernel = j.at("kernel").get<std::string>();
  k.code_hash = j.at("code_hash").get<std::string>();
  k.counters = j.at("counters").get<std::map<std::string, double>>();
  k.median_ns = read_optional(j, "median_ns");
  k.p10_ns = read_optional(j, "p10_ns");
  k.p90_ns = read_optional(j, "p90_ns");
  k.mad_ns = read_optional(j, "mad_ns");
  k.samples_ns = j.at("samples_ns").get<std::vector<double>>();
  return k;
}

json run_json(const RunInfo& r) {
  return {{"key", r.key},
          {"commit", r.commit},
          {"parent", r.parent},
          {"branch", r.branch},
          {"dirty", r.dirty},
          {"command", r.command},
          {"time", r.time},
          {"runner",
           {{"gpu_name", r.runner.gpu_name},
            {"gpu_key", r.runner.gpu_key},
            {"gpu_uuid", r.runner.gpu_uuid},
            {"driver", r.runner.driver},
            {"cuda", r.runner.cuda}}}};
}

RunInfo run_of(const json& j) {
  RunInfo r;
  for (auto [field, key] : {std::pair{&r.key, "key"},
                            {&r.commit, "commit"},
                            {&r.parent, "parent"},
                            {&r.branch, "branch"},
                            {&r.command, "command"},
                            {&r.time, "time"}})
    *field = j.at(key).get<std::string>();
  r.dirty = j.at("dirty").get<bool>();
  const json& runner = j.at("runner");
  for (auto [field, key] : {std::pair{&r.runner.gpu_name, "gpu_name"},
                            {&r.runner.gpu_key, "gpu_key"},
                            {&r.runner.gpu_uuid, "gpu_uuid"},
                            {&r.runner.driver, "driver"},
                            {&r.runner.cuda, "cuda"}})
    *field = runner.at(key).get<std::string>();
  return r;
}

}  // namespace

std::string run_file_json(const RunEntry& run) {
  json tests = json::array();
  for (const TestEntry& t : run.tests) {
    json kernels = json::array();
    for (const KernelEntry& k : t.kernels) kernels.push_back(kernel_json(k));
    tests.push_back({{"test", t.test}, {"outcome", t.outcome}, {"details", t.details_json}, {"kernels", kernels}});
  }
  return json{{"schema", run_file_schema},
              {"schema_version", run_file_schema_version},
              {"run", run_json(run.run)},
              {"tests", tests}}
      .dump();
}

bool is_run_file(const std::string& text) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  return doc.is_object() && doc.value("schema", "") == run_file_schema;
}

RunEntry parse_run_file(const std::string& text, const std::string& origin) {
  const json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object() || doc.value("schema", "") != run_file_schema)
    throw RunFileError(origin + " is no history run file (a JSON object with \"schema\": \"" + run_file_schema + "\")");
  const int version = doc.value("schema_version", 0);
  if (version != run_file_schema_version)
    throw RunFileError(origin + " is a history run file of schema version " + std::to_string(version) +
                       "; this bankgate reads version " + std::to_string(run_file_schema_version));
  try {
    RunEntry run{run_of(doc.at("run")), {}};
    for (const json& t : doc.at("tests")) {
      TestEntry entry{
          t.at("test").get<std::string>(), t.at("outcome").get<std::string>(), {}, t.at("details").get<std::string>()};
      for (const json& k : t.at("kernels")) entry.kernels.push_back(kernel_of(k));
      run.tests.push_back(std::move(entry));
    }
    return run;
  } catch (const json::exception& e) {
    throw RunFileError(origin + " is a damaged history run file (" + e.what() + "); it cannot be imported");
  }
}

std::filesystem::path keep_run_file(const std::filesystem::path& folder, const RunEntry& run) {
  std::filesystem::create_directories(folder);
  const std::filesystem::path path = folder / (run.run.key + ".json");
  gate::write_file_atomically(path, [&](std::ostream& out) { out << run_file_json(run) << "\n"; });
  return path;
}

}  // namespace bankgate::history
