#include <bankgate/gate/protocol/run_manifest.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>
#include <set>

#include <nlohmann/json.hpp>

#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/store/atomic_file.hpp>
#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/text/text.hpp>

namespace bankgate::gate::protocol {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Manifests are a few hundred bytes; anything near this is no manifest.
constexpr std::size_t max_manifest_bytes = std::size_t{64} * 1024;

// It names a claims folder: a '/' or ".." would put that folder elsewhere.
bool is_run_id(const std::string& id) {
  return !id.empty() &&
         std::all_of(id.begin(), id.end(), [](unsigned char c) { return std::isalnum(c) || c == '-' || c == '_'; });
}

class Reader {
 public:
  Reader(const json& doc, std::string origin) : doc_(doc), origin_(std::move(origin)) {}

  void only(const std::set<std::string>& keys) const {
    for (const auto& [key, value] : doc_.items())
      if (!keys.contains(key)) fail("has an unknown field \"" + key + "\"");
  }
  template <typename T>
  std::optional<T> get(const std::string& key, json::value_t type) const {
    const auto it = doc_.find(key);
    if (it == doc_.end()) return std::nullopt;
    const bool fits = it->type() == type || (type == json::value_t::number_unsigned && it->is_number_unsigned());
    if (!fits) fail("has \"" + key + "\" of the wrong type");
    return it->get<T>();
  }
  std::optional<fs::path> folder(const std::string& key) const {
    const auto text = get<std::string>(key, json::value_t::string);
    if (text && text->empty()) fail("has an empty \"" + key + "\"");
    return text ? std::optional<fs::path>(*text) : std::nullopt;
  }
  int small_number(const std::string& key, int fallback, int least, int most = 9999) const {
    const auto n = get<std::uint64_t>(key, json::value_t::number_unsigned);
    if (n && (*n < static_cast<std::uint64_t>(least) || *n > static_cast<std::uint64_t>(most)))
      fail("has \"" + key + "\" out of range");
    return n ? static_cast<int>(*n) : fallback;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw SettingsError("the run manifest " + origin_ + " " + what +
                        "; it is written by the bankgate command for the "
                        "processes it starts: run the command again, and leave " +
                        env::run_manifest +
                        " unset when running a "
                        "suite by hand");
  }

 private:
  const json& doc_;
  std::string origin_;
};

void put(json& doc, const char* key, const std::optional<fs::path>& folder) {
  if (folder) doc[key] = folder->string();
}

}  // namespace

std::string manifest_json(const RunManifest& m) {
  json doc{{"version", manifest_version}, {"suite_filter", m.suite_filter}, {"shard", m.shard}};
  if (m.run_id) doc["run_id"] = *m.run_id;
  if (m.attribute) doc["attribute"] = *m.attribute;
  if (m.require_gpu) doc["require_gpu"] = *m.require_gpu;
  if (m.gpus) doc["gpus"] = *m.gpus;
  if (m.confirm_processes) doc["confirm_processes"] = *m.confirm_processes;
  if (m.measure_only) doc["measure_only"] = *m.measure_only;
  if (m.device) doc["device"] = *m.device;
  if (m.launch_only) doc["launch_only"] = *m.launch_only;
  if (m.fail_on_speedup) doc["fail_on_speedup"] = *m.fail_on_speedup;
  if (m.lock_timeout_s) doc["lock_timeout_s"] = *m.lock_timeout_s;
  if (m.source) doc["source"] = json{{"commit", m.source->commit}, {"dirty", m.source->dirty}};
  put(doc, "candidate_dir", m.candidate_dir);
  put(doc, "baseline_dir", m.baseline_dir);
  put(doc, "results_dir", m.results_dir);
  put(doc, "running_file", m.running_file);
  put(doc, "claims_dir", m.claims_dir);
  return json_text(doc);
}

RunManifest parse_manifest(const std::string& text, const std::string& origin) {
  json doc;
  try {
    doc = parse_input_json(text, origin);
  } catch (const InputFileError&) {
    doc = json(json::value_t::discarded);  // named below as not a JSON object
  }
  const Reader r(doc, origin);
  if (!doc.is_object()) r.fail("is not a JSON object");
  r.only({"version", "run_id", "attribute", "require_gpu", "candidate_dir", "baseline_dir", "suite_filter", "gpus",
          "source", "results_dir", "running_file", "claims_dir", "shard", "device", "confirm_processes", "measure_only",
          "launch_only", "fail_on_speedup", "lock_timeout_s"});
  if (r.get<std::uint64_t>("version", json::value_t::number_unsigned) != static_cast<std::uint64_t>(manifest_version))
    r.fail("is not of version " + std::to_string(manifest_version) + " (a bankgate of another release wrote it)");
  RunManifest m;
  m.run_id = r.get<std::string>("run_id", json::value_t::string);
  if (m.run_id && !is_run_id(*m.run_id)) r.fail("has a run_id that is not letters, digits, '-' and '_'");
  m.attribute = r.get<bool>("attribute", json::value_t::boolean);
  m.require_gpu = r.get<bool>("require_gpu", json::value_t::boolean);
  m.measure_only = r.get<bool>("measure_only", json::value_t::boolean);
  m.launch_only = r.get<bool>("launch_only", json::value_t::boolean);
  m.fail_on_speedup = r.get<bool>("fail_on_speedup", json::value_t::boolean);
  if (doc.contains("lock_timeout_s")) m.lock_timeout_s = r.small_number("lock_timeout_s", 0, 1, max_lock_timeout_s);
  m.suite_filter = r.get<std::string>("suite_filter", json::value_t::string).value_or("");
  if (doc.contains("gpus")) m.gpus = r.small_number("gpus", 1, 1);
  m.shard = r.small_number("shard", 0, 0);
  if (doc.contains("device")) m.device = r.small_number("device", 0, 0);
  if (doc.contains("confirm_processes")) {
    m.confirm_processes = r.small_number("confirm_processes", 0, 0);
    if (*m.confirm_processes > max_confirm_processes) r.fail("has \"confirm_processes\" out of range");
  }
  m.candidate_dir = r.folder("candidate_dir");
  m.baseline_dir = r.folder("baseline_dir");
  m.results_dir = r.folder("results_dir");
  m.running_file = r.folder("running_file");
  m.claims_dir = r.folder("claims_dir");
  if (const auto source = doc.find("source"); source != doc.end()) {
    const Reader s(*source, origin + " (its \"source\")");
    if (!source->is_object()) r.fail("has a \"source\" that is not an object");
    s.only({"commit", "dirty"});
    m.source = SourceTree{s.get<std::string>("commit", json::value_t::string).value_or("unknown"),
                          s.get<bool>("dirty", json::value_t::boolean).value_or(false)};
  }
  return m;
}

void write_manifest(const fs::path& file, const RunManifest& manifest) {
  const std::string text = manifest_json(manifest);
  write_file_atomically(file, [&](std::ostream& out) { out << text; });
}

namespace {

// The manifests this process has parsed, by file and the text each was parsed from. Every accessor of the
// settings asks for the manifest, and a suite process asks once per test; each file is parsed once. The text is
// part of the key because the same file may hold another manifest later (the command's next run, a test).
struct ParsedManifests {
  std::mutex mutex;
  std::map<std::pair<std::string, std::string>, RunManifest> parsed;
  std::size_t parses = 0;
};

ParsedManifests& parsed_manifests() {
  static ParsedManifests manifests;
  return manifests;
}

}  // namespace

std::optional<RunManifest> run_manifest(const EnvLookup& lookup) {
  const auto file = lookup(env::run_manifest);
  if (!file || file->empty()) return std::nullopt;
  std::string text;
  try {
    text = read_input_file(*file, max_manifest_bytes);
  } catch (const std::exception& e) {
    throw SettingsError(env::run_manifest + std::string(" names a run manifest that cannot be read: ") + e.what() +
                        "; the bankgate command writes it for the processes it starts: leave the variable unset when "
                        "running a suite by hand");
  }
  ParsedManifests& manifests = parsed_manifests();
  const std::lock_guard<std::mutex> hold(manifests.mutex);
  auto key = std::make_pair(*file, std::move(text));
  if (const auto it = manifests.parsed.find(key); it != manifests.parsed.end()) return it->second;
  RunManifest manifest = parse_manifest(key.second, *file);  // a refused one is refused again on each call
  ++manifests.parses;
  return manifests.parsed.emplace(std::move(key), std::move(manifest)).first->second;
}

std::size_t manifest_parses() {
  ParsedManifests& manifests = parsed_manifests();
  const std::lock_guard<std::mutex> hold(manifests.mutex);
  return manifests.parses;
}

}  // namespace bankgate::gate::protocol
