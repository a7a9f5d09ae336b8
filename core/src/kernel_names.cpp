// Kernel names as results give them (kernel_base_name, declared in results.hpp): text only, so the command
// can turn another tool's demangled names into the same names without the collector.
#include <bankgate/results.hpp>

#include <array>
#include <cctype>
#include <string>
#include <string_view>

namespace bankgate {

std::string kernel_base_name(const std::string& demangled) {
  std::string name = demangled;
  // Drop the parameter list: the parenthesis group that closes the name.
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        name.erase(i);
        break;
      }
    }
  }
  // Drop a return type and namespaces: cut after the last space or "::" outside template brackets and
  // outside "(anonymous namespace)".
  int angle = 0, paren = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '<') ++angle;
    if (c == '>') --angle;
    if (c == '(') ++paren;
    if (c == ')') --paren;
    if (angle == 0 && paren == 0) {
      if (c == ' ') start = i + 1;
      if (c == ':' && i + 1 < name.size() && name[i + 1] == ':') start = i + 2;
    }
  }
  name.erase(0, start);
  // Some demanglers (cu++filt) write integer template arguments with a cast, tiledMatmul<(int)16>; a name
  // is the same kernel either way, so the cast goes.
  static const std::array<std::string_view, 8> casts{"(int)",       "(unsigned int)", "(long)", "(unsigned long)",
                                                     "(long long)", "(short)",        "(char)", "(bool)"};
  for (std::size_t open = name.find('('); open != std::string::npos; open = name.find('(', open + 1)) {
    for (std::string_view cast : casts) {
      const std::size_t after = open + cast.size();
      if (name.compare(open, cast.size(), cast) == 0 && after < name.size() &&
          (std::isdigit(static_cast<unsigned char>(name[after])) || name[after] == '-')) {
        name.erase(open, cast.size());
        break;
      }
    }
  }
  return name;
}

bool kernel_name_matches(const std::string& wanted, const std::string& base_name) {
  if (wanted.empty()) return false;
  if (wanted == base_name) return true;
  return wanted.find('<') == std::string::npos && base_name.size() > wanted.size() &&
         base_name.compare(0, wanted.size(), wanted) == 0 && base_name[wanted.size()] == '<';
}

}  // namespace bankgate
