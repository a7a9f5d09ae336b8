// protocol: the names bankgate's processes share (gate/protocol/run_protocol.hpp) as data, for scripts, so that they read
// them instead of keeping copies: environment variables, result layout, test properties, exit codes.

#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include <bankgate/gate/reports/output_json.hpp>
#include <bankgate/gate/protocol/run_protocol.hpp>

#include "../commands.hpp"
#include "../options.hpp"
#include "../subcommand_table.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace g = bankgate::gate;

// `get`: one entry, e.g. "layout.gate" or "environment.run_id", printed bare (an object: one "key<TAB>value" line
// per entry); empty: all of it as JSON. `build`: the result layout under this build folder.
struct ProtocolOptions {
  std::filesystem::path build;
  std::string get;
};

// The run protocol as data: what `bankgate protocol` prints, and the scripts read instead of keeping copies.
nlohmann::json protocol_document(const fs::path& build) {
  namespace p = g::protocol;
  nlohmann::json environment = nlohmann::json::object();
  for (const p::Name& variable : p::environment) environment[std::string(variable.key)] = std::string(variable.name);
  nlohmann::json layout = nlohmann::json::object();
  for (const auto& [name, path] : p::layout(build)) layout[name] = path.string();
  nlohmann::json properties = nlohmann::json::array();
  for (const char* name : p::properties) properties.push_back(name);
  nlohmann::json exit_codes = nlohmann::json::object();
  for (const auto& [name, code] : p::exit_codes) exit_codes[std::string(name)] = code;
  return {{"environment", environment},
          {"layout", layout},
          {"measure_test_prefix", p::measure_test_prefix},
          {"test_properties", properties},
          {"exit_codes", exit_codes}};
}

// A value as a shell reads it: a string bare, anything else as JSON.
std::string bare(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : g::json_text(value, -1);
}

// The entry `path` names ("layout.gate": one step per dot), or nullptr after saying on `err` what there is.
const nlohmann::json* find_entry(const nlohmann::json& document, const std::string& path, std::ostream& err) {
  const nlohmann::json* value = &document;
  std::size_t start = 0;  // of the next step's key in `path`
  while (start <= path.size()) {
    const std::size_t end = std::min(path.find('.', start), path.size());
    const std::string key = path.substr(start, end - start);
    if (!value->is_object() || !value->contains(key)) {
      err << "bankgate protocol: no '" << path << "' in the run protocol";
      if (value->is_object()) {
        err << "; " << (start == 0 ? std::string("it") : path.substr(0, start - 1)) << " has:";
        for (const auto& [name, unused] : value->items()) err << " " << name;
      }
      err << "\n";
      return nullptr;
    }
    value = &(*value)[key];
    start = end + 1;
  }
  return value;
}

int protocol(const ProtocolOptions& o) {
  const nlohmann::json document = protocol_document(o.build);
  if (o.get.empty()) {
    std::cout << g::json_text(document) << "\n";
    return exit_ok;
  }
  const nlohmann::json* value = find_entry(document, o.get, std::cerr);
  if (value == nullptr) return exit_usage;
  if (value->is_object())
    for (const auto& [name, entry] : value->items()) std::cout << name << "\t" << bare(entry) << "\n";
  else if (value->is_array())
    for (const auto& entry : *value) std::cout << bare(entry) << "\n";
  else
    std::cout << bare(*value) << "\n";
  return exit_ok;
}

}  // namespace

Runner define_protocol(CLI::App& command) {
  const auto o = std::make_shared<ProtocolOptions>();
  command.add_option("--build", o->build, "give the result layout under this build folder");
  command.add_option("--get", o->get, "print one entry bare, e.g. layout.gate or environment.run_id");
  command.footer(exit_codes_of({{exit_usage, "usage error, or --get names no entry"}}));
  return [o] { return protocol(*o); };
}

}  // namespace bankgate::cli
