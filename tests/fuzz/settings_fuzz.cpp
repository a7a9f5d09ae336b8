// libFuzzer target for the settings read from the environment: the input is lines NAME=VALUE; any values give
// Settings or a SettingsError naming the variable. The whole input is read as a run manifest too, which gives a
// manifest or a SettingsError (the variable naming a manifest file is left out: the fuzzer reads no files).

#include <cstddef>
#include <cstdint>
#include <map>
#include <sstream>
#include <string>

#include <bankgate/gate/protocol/run_manifest.hpp>
#include <bankgate/gate/protocol/settings.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::map<std::string, std::string> environment;
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string line; std::getline(lines, line);) {
    const auto equals = line.find('=');
    if (equals != std::string::npos) environment[line.substr(0, equals)] = line.substr(equals + 1);
  }
  environment.erase("BANKGATE_RUN_MANIFEST");
  const bankgate::gate::EnvLookup lookup = [&](const std::string& name) -> std::optional<std::string> {
    const auto it = environment.find(name);
    return it == environment.end() ? std::nullopt : std::optional<std::string>(it->second);
  };
  try {
    const auto settings = bankgate::gate::load_settings(lookup, "baselines", "candidates");
    volatile int sink = settings.device + settings.lock_timeout_s;
    (void)sink;
    for (const char* flag : {"CI", "BANKGATE_GIT_DIRTY"}) bankgate::gate::parse_flag(flag, lookup(flag));
  } catch (const bankgate::gate::SettingsError&) {
  }
  try {
    const auto manifest =
        bankgate::gate::protocol::parse_manifest(std::string(reinterpret_cast<const char*>(data), size), "input");
    volatile int sink = manifest.shard + manifest.gpus.value_or(0);
    (void)sink;
  } catch (const bankgate::gate::SettingsError&) {
  }
  return 0;
}
