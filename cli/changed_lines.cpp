// The per-line figures that changed between two measurements of a project (changed_lines.hpp).

#include "changed_lines.hpp"

#include <cstdint>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include <bankgate/gate/text/text.hpp>
#include <bankgate/history/collect.hpp>

namespace bankgate::cli {

namespace fs = std::filesystem;
namespace g = bankgate::gate;
namespace h = bankgate::history;

namespace {

// Each kernel's per-line figures in a candidates folder, as collect.hpp keeps them: "Suite.test kernel" -> lines.
std::map<std::string, nlohmann::json> lines_of(const fs::path& candidates) {
  std::map<std::string, nlohmann::json> out;
  for (const h::TestEntry& t : h::collect_tests(candidates, {})) {
    const nlohmann::json details = nlohmann::json::parse(t.details_json, nullptr, false);
    if (details.is_object() && details.contains("lines"))
      for (const auto& [kernel, lines] : details["lines"].items()) out[t.test + " " + kernel] = lines;
  }
  return out;
}

}  // namespace

void print_changed_lines(const fs::path& before_dir, const fs::path& after_dir, const std::vector<std::string>& watched,
                         std::ostream& out) {
  const auto before = lines_of(before_dir), after = lines_of(after_dir);
  std::set<std::string> kernels;
  for (const std::string& key : watched) kernels.insert(key.substr(0, key.rfind(' ')));
  for (const std::string& kernel : kernels) {
    const auto a = after.find(kernel);
    if (a == after.end()) continue;
    std::map<std::string, nlohmann::json> was;
    if (const auto b = before.find(kernel); b != before.end())
      for (const auto& line : b->second) was[line.value("where", "") + " " + line.value("opcode", "")] = line;
    for (const auto& line : a->second) {
      const std::string where = line.value("where", "") + " " + line.value("opcode", "");
      const auto old = was.find(where);
      for (const char* figure : {"executions", "wavefronts", "sectors"}) {
        const std::uint64_t now = line.value(figure, std::uint64_t{0});
        const std::uint64_t then = old == was.end() ? 0 : old->second.value(figure, std::uint64_t{0});
        if (now != then)
          out << "  " << g::terminal_line(kernel + "  " + where) << ": " << figure << " " << then << " -> " << now
              << "\n";
      }
    }
  }
}

}  // namespace bankgate::cli
