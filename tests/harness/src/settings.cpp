#include <bankgate/harness/settings.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace bankgate::harness {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

int parse_device_index(const std::string& name, const std::string& value) {
  const bool digits = !value.empty() && std::all_of(value.begin(), value.end(), [](unsigned char c) { return std::isdigit(c); });
  if (!digits || value.size() > 4)
    throw SettingsError(name + "='" + value + "' is not a GPU index; set it to a whole number such as 0 or 1");
  return std::stoi(value);
}

// CTest resource allocation hands each test "id:<gpu>,slots:<n>" in CTEST_RESOURCE_GROUP_0_GPUS.
std::optional<int> ctest_assigned_gpu(const EnvLookup& lookup) {
  const auto value = lookup("CTEST_RESOURCE_GROUP_0_GPUS");
  if (!value || value->empty()) return std::nullopt;
  const auto begin = value->find("id:");
  if (begin == std::string::npos)
    throw SettingsError("CTEST_RESOURCE_GROUP_0_GPUS='" + *value + "' has no 'id:'; regenerate the CTest resource spec");
  const auto end = value->find(',', begin);
  return parse_device_index("CTEST_RESOURCE_GROUP_0_GPUS", value->substr(begin + 3, end == std::string::npos ? end : end - begin - 3));
}

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
  if (const auto device = lookup("BANKGATE_DEVICE"); device && !device->empty())
    s.device = parse_device_index("BANKGATE_DEVICE", *device);
  else if (const auto assigned = ctest_assigned_gpu(lookup))
    s.device = *assigned;
  s.baseline_dir = directory_setting(lookup, "BANKGATE_BASELINE_DIR", default_baseline_dir);
  s.candidate_dir = directory_setting(lookup, "BANKGATE_CANDIDATE_DIR", default_candidate_dir);
  return s;
}

}  // namespace bankgate::harness
