#include <bankgate/gate/settings.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace bankgate::gate {
namespace {

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
  if (!index) throw SettingsError(name + "='" + value + "' is not a GPU index; set it to a whole number such as 0 or 1");
  return *index;
}

}  // namespace

// CTest resource allocation (ctest --resource-spec-file; GPU tests ask for RESOURCE_GROUPS "gpus:1") gives each
// test CTEST_RESOURCE_GROUP_COUNT=1 and its GPU in CTEST_RESOURCE_GROUP_0_GPUS="id:<gpu>,slots:<n>". CTest sets
// the count only while allocation is active (and removes a parent ctest's), so the count decides: a group
// variable without it is left over from an outer run and is ignored.
std::optional<int> ctest_assigned_gpu(const EnvLookup& lookup) {
  const auto count = lookup("CTEST_RESOURCE_GROUP_COUNT");
  if (!count || count->empty()) return std::nullopt;
  if (*count != "1")
    throw SettingsError("CTEST_RESOURCE_GROUP_COUNT='" + *count + "': a GPU test asks CTest for one resource group "
                        "(RESOURCE_GROUPS \"gpus:1\" in cmake/BankgateTests.cmake)");
  const std::string name = "CTEST_RESOURCE_GROUP_0_GPUS";
  const std::string value = lookup(name).value_or("");
  const std::string hint = "; the resource spec must list GPUs under \"gpus\" as ci/write-resource-spec.sh writes it";
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
  const auto value = lookup("BANKGATE_GPUS");
  if (!value || value->empty()) return 1;
  const auto gpus = whole_number(*value, 4);
  if (!gpus || *gpus == 0)
    throw SettingsError("BANKGATE_GPUS='" + *value + "' is not a number of GPUs; set it to the GPUs of the resource spec, "
                        "such as 2, or unset it");
  return *gpus;
}

int shard_of_this_process(const EnvLookup& lookup) {
  const auto value = lookup("BANKGATE_SHARD");
  if (!value || value->empty()) return 0;
  const auto shard = whole_number(*value, 4);
  if (!shard) throw SettingsError("BANKGATE_SHARD='" + *value + "' is not a shard number; bankgate run-suite sets it, leave it unset");
  return *shard;
}

std::optional<std::string> cuda_connections_to_set(const EnvLookup& lookup) {
  const auto chosen = lookup("CUDA_DEVICE_MAX_CONNECTIONS");
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

Settings load_settings(const EnvLookup& lookup, const std::filesystem::path& default_baseline_dir,
                       const std::filesystem::path& default_candidate_dir) {
  Settings s;
  s.require_gpu = parse_flag("BANKGATE_REQUIRE_GPU", lookup("BANKGATE_REQUIRE_GPU"));
  s.launch_only = parse_flag("BANKGATE_LAUNCH_ONLY", lookup("BANKGATE_LAUNCH_ONLY"));
  s.attribute = parse_flag("BANKGATE_ATTRIBUTE", lookup("BANKGATE_ATTRIBUTE"));
  s.fail_on_speedup = parse_flag("BANKGATE_FAIL_ON_SPEEDUP", lookup("BANKGATE_FAIL_ON_SPEEDUP"));
  if (const auto device = lookup("BANKGATE_DEVICE"); device && !device->empty())
    s.device = parse_device_index("BANKGATE_DEVICE", *device);
  else if (const auto assigned = ctest_assigned_gpu(lookup))
    s.device = *assigned;
  s.baseline_dir = directory_setting(lookup, "BANKGATE_BASELINE_DIR", default_baseline_dir);
  s.candidate_dir = directory_setting(lookup, "BANKGATE_CANDIDATE_DIR", default_candidate_dir);
  if (const auto timeout = lookup("BANKGATE_LOCK_TIMEOUT"); timeout && !timeout->empty()) {
    const auto seconds = whole_number(*timeout, 6);
    if (!seconds || *seconds == 0)
      throw SettingsError("BANKGATE_LOCK_TIMEOUT='" + *timeout + "' is not a number of seconds; set it to a whole number such as 240");
    s.lock_timeout_s = *seconds;
  }
  return s;
}

}  // namespace bankgate::gate
