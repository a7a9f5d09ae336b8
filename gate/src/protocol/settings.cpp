#include <bankgate/gate/protocol/settings.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include <bankgate/gate/protocol/run_manifest.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>
#include <bankgate/gate/text/source_url.hpp>

namespace bankgate::gate {
namespace {

namespace env = protocol::env;
using namespace std::string_literals;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// A whole number of at most `max_digits` digits, or nullopt for anything else (signs, spaces, too long).
std::optional<int> whole_number(const std::string& value, std::size_t max_digits) {
  const bool digits = !value.empty() && value.size() <= max_digits &&
                      std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); });
  if (!digits) return std::nullopt;
  return std::stoi(value);
}

int parse_device_index(const std::string& name, const std::string& value) {
  const auto index = whole_number(value, 4);
  if (!index)
    throw SettingsError(name + "='" + value + "' is not a GPU index; set it to a whole number such as 0 or 1");
  return *index;
}

}  // namespace

// CTest resource allocation (ctest --resource-spec-file; GPU tests ask for RESOURCE_GROUPS "gpus:1") gives each
// test CTEST_RESOURCE_GROUP_COUNT=1 and its GPU in CTEST_RESOURCE_GROUP_0_GPUS="id:<gpu>,slots:<n>". CTest sets
// the count only while allocation is active (and removes a parent ctest's), so the count decides: a group
// variable without it is left over from an outer run and is ignored.
std::optional<int> ctest_assigned_gpu(const EnvLookup& lookup) {
  const auto count = lookup(env::ctest_resource_group_count);
  if (!count || count->empty()) return std::nullopt;
  if (*count != "1")
    throw SettingsError(env::ctest_resource_group_count + "='"s + *count +
                        "': a GPU test asks CTest for one resource group "
                        "(RESOURCE_GROUPS \"gpus:1\" in cmake/bankgateSuite.cmake)");
  const std::string name = env::ctest_resource_group_0_gpus;
  const std::string value = lookup(name).value_or("");
  const std::string hint =
      "; the resource spec must list GPUs under \"gpus\" as bankgate-resource-spec (installed beside bankgate) writes "
      "it";
  if (value.empty()) throw SettingsError(name + " is not set although CTest allocates resources" + hint);
  // One pair: "id:0,slots:1;id:1,slots:1" would be two GPUs for a test that measures on one.
  if (value.find(';') != std::string::npos)
    throw SettingsError(name + "='" + value + "' allots several GPUs; a GPU test measures on one");
  std::optional<std::string> id;
  std::size_t start = 0;
  while (start <= value.size()) {
    const std::size_t end = std::min(value.find(',', start), value.size());
    const std::string field = value.substr(start, end - start);
    if (field.rfind("id:", 0) == 0 && !id)
      id = field.substr(3);
    else if (field.rfind("slots:", 0) != 0)
      throw SettingsError(name + "='" + value + "': unexpected '" + field + "' (CTest writes id:<gpu>,slots:<n>)");
    start = end + 1;
  }
  if (!id) throw SettingsError(name + "='" + value + "' has no 'id:'" + hint);
  const bool index = !id->empty() && id->size() <= 4 &&
                     std::all_of(id->begin(), id->end(), [](unsigned char c) { return std::isdigit(c); });
  if (!index) throw SettingsError(name + "='" + value + "': GPU id '" + *id + "' is not a CUDA device index" + hint);
  return std::stoi(*id);
}

int gpus_of_the_run(const EnvLookup& lookup) {
  if (const auto manifest = protocol::run_manifest(lookup); manifest && manifest->gpus) return *manifest->gpus;
  const auto value = lookup(env::gpus);
  if (!value || value->empty()) return 1;
  const auto gpus = whole_number(*value, 4);
  if (!gpus || *gpus == 0)
    throw SettingsError(env::gpus + "='"s + *value +
                        "' is not a number of GPUs; set it to the GPUs of the resource spec, "
                        "such as 2, or unset it");
  return *gpus;
}

std::optional<std::string> cuda_connections_to_set(const EnvLookup& lookup) {
  const auto chosen = lookup(env::cuda_device_max_connections);
  if (chosen && !chosen->empty()) return std::nullopt;
  return "1";
}

std::optional<std::string> visible_devices_for(int index, const std::optional<std::string>& visible) {
  if (index < 0) return std::nullopt;
  if (!visible) return std::to_string(index);
  std::size_t start = 0;
  for (int entry = 0; start <= visible->size(); ++entry) {
    const std::size_t end = std::min(visible->find(',', start), visible->size());
    if (entry == index) {
      std::string value = visible->substr(start, end - start);
      value.erase(0, value.find_first_not_of(' '));
      value.erase(value.find_last_not_of(' ') + 1);
      if (value.empty()) return std::nullopt;
      return value;
    }
    start = end + 1;
  }
  return std::nullopt;
}

namespace {

std::filesystem::path directory_setting(const EnvLookup& lookup, const std::string& name,
                                        const std::filesystem::path& fallback) {
  const auto value = lookup(name);
  if (!value) return fallback;
  if (value->empty()) throw SettingsError(name + " is set but empty; unset it or give a folder path");
  return *value;
}

}  // namespace

bool parse_flag(const std::string& name, const std::optional<std::string>& value) {
  if (!value || value->empty()) return false;
  const std::string v = lower(*value);
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  throw SettingsError(name + "='" + *value + "' is not a yes/no value; use 1 or 0");
}

std::optional<std::string> process_environment(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  return value == nullptr ? std::nullopt : std::optional<std::string>(value);
}

namespace {

bool flag(const EnvLookup& lookup, const std::string& name) { return parse_flag(name, lookup(name)); }

// The value of `name` where it is set to something; nullopt when unset or empty alike (what the processes of a
// run mean by leaving a variable out).
std::optional<std::string> given(const EnvLookup& lookup, const std::string& name) {
  auto value = lookup(name);
  if (!value || value->empty()) return std::nullopt;
  return value;
}

SuiteLevelSettings suite_level_settings(const EnvLookup& lookup, const protocol::RunManifest& m) {
  SuiteLevelSettings s;
  s.launch_only = m.launch_only ? *m.launch_only : flag(lookup, env::launch_only);
  s.fail_on_speedup = m.fail_on_speedup ? *m.fail_on_speedup : flag(lookup, env::fail_on_speedup);
  if (m.lock_timeout_s) {
    s.lock_timeout_s = *m.lock_timeout_s;
  } else if (const auto timeout = given(lookup, env::lock_timeout)) {
    const auto seconds = whole_number(*timeout, 6);
    if (!seconds || *seconds == 0)
      throw SettingsError(env::lock_timeout + "='"s + *timeout +
                          "' is not a number of seconds; set it to a whole number such as 240");
    s.lock_timeout_s = *seconds;
  }
  return s;
}

}  // namespace

SuiteLevelSettings suite_level_settings(const EnvLookup& lookup) {
  return suite_level_settings(lookup, protocol::run_manifest(lookup).value_or(protocol::RunManifest{}));
}

Settings load_settings(const EnvLookup& lookup, const std::filesystem::path& default_baseline_dir,
                       const std::filesystem::path& default_candidate_dir) {
  const auto m = protocol::run_manifest(lookup).value_or(protocol::RunManifest{});
  const SuiteLevelSettings suite = suite_level_settings(lookup, m);
  Settings s;
  s.require_gpu = m.require_gpu ? *m.require_gpu : flag(lookup, env::require_gpu);
  s.launch_only = suite.launch_only;
  s.attribute = m.attribute ? *m.attribute : flag(lookup, env::attribute);
  s.fail_on_speedup = suite.fail_on_speedup;
  s.lock_timeout_s = suite.lock_timeout_s;
  s.measure_only = m.measure_only.value_or(false);
  if (m.device)
    s.device = *m.device;
  else if (const auto device = lookup(env::device); device && !device->empty())
    s.device = parse_device_index(env::device, *device);
  else if (const auto assigned = ctest_assigned_gpu(lookup))
    s.device = *assigned;
  s.baseline_dir =
      m.baseline_dir ? *m.baseline_dir : directory_setting(lookup, env::baseline_dir, default_baseline_dir);
  s.candidate_dir =
      m.candidate_dir ? *m.candidate_dir : directory_setting(lookup, env::candidate_dir, default_candidate_dir);
  return s;
}

std::filesystem::path lock_folder(const EnvLookup& lookup) {
  return std::filesystem::path(given(lookup, env::tmpdir).value_or("/tmp"));
}

std::string suite_filter(const EnvLookup& lookup) {
  const auto manifest = protocol::run_manifest(lookup);
  return manifest ? manifest->suite_filter : "";
}

std::optional<std::string> run_id(const EnvLookup& lookup) {
  const auto manifest = protocol::run_manifest(lookup);
  return manifest ? manifest->run_id : std::nullopt;
}

bool device_chosen(const EnvLookup& lookup) { return given(lookup, env::device).has_value(); }

std::optional<std::string> visible_devices(const EnvLookup& lookup) { return lookup(env::cuda_visible_devices); }

std::optional<std::filesystem::path> claims_folder(const EnvLookup& lookup) {
  const auto manifest = protocol::run_manifest(lookup);
  return manifest ? manifest->claims_dir : std::nullopt;
}

std::optional<ResultFileSettings> result_file_settings(const EnvLookup& lookup) {
  const auto manifest = protocol::run_manifest(lookup);
  if (!manifest || !manifest->results_dir) return std::nullopt;
  ResultFileSettings s;
  s.results_dir = *manifest->results_dir;
  s.running_file = manifest->running_file.value_or(protocol::default_running_file(s.results_dir));
  s.claims_dir = manifest->claims_dir;
  s.shard = manifest->shard;
  return s;
}

bool fail_on_speedup(const EnvLookup& lookup) { return suite_level_settings(lookup).fail_on_speedup; }

std::optional<std::string> baseline_dir_override(const EnvLookup& lookup) {
  if (const auto manifest = protocol::run_manifest(lookup); manifest && manifest->baseline_dir)
    return manifest->baseline_dir->string();
  return lookup(env::baseline_dir);
}

bool running_in_ci(const EnvLookup& lookup) { return flag(lookup, env::ci); }

bool colour_refused(const EnvLookup& lookup) { return !lookup(env::no_color).value_or("").empty(); }

std::optional<std::string> source_url_template(const EnvLookup& lookup) {
  auto text = given(lookup, env::source_url);
  if (!text) return std::nullopt;
  if (const std::string problem = source_url_problem(*text); !problem.empty())
    throw SettingsError(env::source_url + ": "s + problem + " (unset it for a report without links)");
  return text;
}

std::optional<std::string> history_location(const EnvLookup& lookup) { return given(lookup, env::history); }

SourceTree source_tree(const EnvLookup& lookup) {
  if (const auto manifest = protocol::run_manifest(lookup); manifest && manifest->source) return *manifest->source;
  SourceTree tree;
  tree.commit = lookup(env::git_commit).value_or(tree.commit);
  tree.dirty = flag(lookup, env::git_dirty);
  return tree;
}

}  // namespace bankgate::gate
