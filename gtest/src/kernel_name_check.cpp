#include "kernel_name_check.hpp"

#include <algorithm>
#include <iostream>
#include <regex>
#include <sstream>

#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/preflight.hpp>
#include <bankgate/results.hpp>

namespace bankgate::gtest {

namespace fs = std::filesystem;

std::vector<NamedKernel> kernel_names_in(const fs::path& file, const std::string& text) {
  static const std::regex one(R"(\bkernel_name\s*=\s*"([^"\\]+)\")");
  static const std::regex several(R"(\bkernel_names\s*=\s*\{([^}]*)\})");
  static const std::regex literal(R"("([^"\\]+)\")");
  std::vector<NamedKernel> names;
  const auto line_at = [&](std::ptrdiff_t offset) {
    return static_cast<std::size_t>(std::count(text.begin(), text.begin() + offset, '\n')) + 1;
  };
  for (auto it = std::sregex_iterator(text.begin(), text.end(), one); it != std::sregex_iterator(); ++it)
    names.push_back({file, line_at(it->position(1)), (*it)[1]});
  for (auto it = std::sregex_iterator(text.begin(), text.end(), several); it != std::sregex_iterator(); ++it) {
    const std::string list = (*it)[1];
    for (auto item = std::sregex_iterator(list.begin(), list.end(), literal); item != std::sregex_iterator(); ++item)
      names.push_back({file, line_at(it->position(1) + item->position(1)), (*item)[1]});
  }
  return names;
}

std::size_t report_unknown_kernel_names(const std::vector<fs::path>& sources, const std::set<std::string>& kernels,
                                        const std::string& program, std::ostream& out) {
  std::string known;
  for (const std::string& k : kernels) known += (known.empty() ? "" : ", ") + k;
  std::size_t unknown = 0;
  for (const fs::path& source : sources) {
    for (const NamedKernel& named : kernel_names_in(source, gate::read_input_file(source))) {
      if (kernels.count(kernel_base_name(named.name)) > 0) continue;
      ++unknown;
      out << gate::terminal_line(named.file.string()) << ":" << named.line << ": error: kernel name \""
          << gate::terminal_line(named.name) << "\" matches no kernel of " << gate::terminal_line(program)
          << " (its kernels: " << gate::terminal_line(known.empty() ? "none" : known)
          << "); the test would fail on every GPU, and be skipped without one\n";
    }
  }
  return unknown;
}

int check_kernel_names_of_this_program(const std::string& sources, const std::string& program) {
  std::vector<fs::path> files;
  std::istringstream list(sources);
  for (std::string file; std::getline(list, file, ';');)
    if (file.ends_with(".cpp") || file.ends_with(".cu") || file.ends_with(".cc") || file.ends_with(".cxx"))
      files.emplace_back(file);
  const ProgramKernels kernels = kernels_in_this_program();
  std::ostringstream report;
  const std::size_t unknown = report_unknown_kernel_names(files, kernels.names, program, report);
  if (unknown == 0) return 0;
  if (!kernels.unread.empty()) {  // some device code was not read: the name may be there
    std::cerr << "bankgate: warning: " << report.str()
              << "(not all of the program's device code could be read: " << gate::terminal_line(kernels.unread.front())
              << ")\n";
    return 0;
  }
  std::cerr << report.str();
  return 1;
}

}  // namespace bankgate::gtest
