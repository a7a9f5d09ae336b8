// The README's kernel table, rendered from the committed baselines (see readme_page.hpp).

#include "readme_page.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include <bankgate/gate/rules/baseline_json.hpp>
#include <bankgate/gate/store/atomic_file.hpp>
#include <bankgate/gate/store/baseline_folder.hpp>
#include <bankgate/gate/rules/gpu_key.hpp>
#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/text/text.hpp>
#include <bankgate/metrics.hpp>

#include "commands.hpp"
#include "process.hpp"

namespace bankgate::cli {
namespace {

namespace fs = std::filesystem;
namespace h = bankgate::gate;

// A baseline written under another schema version: the reader cannot render it, and nobody should patch the
// README by hand meanwhile, so this is reported apart from a corrupt file.
struct OtherSchema : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr const char* none = "—";
// The two sides of every catalogue kernel, each a pair of ratios shown as "load / store".
constexpr std::pair<const char*, const char*> shared_pair{"shared_load_transactions_per_request",
                                                          "shared_store_transactions_per_request"};
constexpr std::pair<const char*, const char*> global_pair{"global_load_sectors_per_request",
                                                          "global_store_sectors_per_request"};

// Ratios are shown with at most three decimals; that is also the precision at which measured and expected
// are compared, so a row is marked only where a reader of the table can see the difference
// (0.72727... measured against 0.727 written in the source is a match).
std::string ratio_text(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3f", v);
  std::string text = buffer;
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text == "-0" ? "0" : text;
}

std::string duration_text(double ns) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f µs", ns / 1000.0);
  return buffer;
}

// A table cell from a baseline's text, which a pull request may change: markdown_text (text.hpp) shows it as the
// characters it holds, on one line, with no live HTML, link or image, no '|' ending the cell early, and '<' as
// an entity, so that no cell can open or close an HTML comment such as the table's markers.
std::string cell(const std::string& text) { return h::markdown_text(text); }

// "Async4" < "Async16": runs of digits compare by value, so a family's sizes come out in order.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (da && db) {
      std::size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
      std::string na = a.substr(i, ie - i), nb = b.substr(j, je - j);
      na.erase(0, std::min(na.find_first_not_of('0'), na.size()));
      nb.erase(0, std::min(nb.find_first_not_of('0'), nb.size()));
      if (na.size() != nb.size()) return na.size() < nb.size();
      if (na != nb) return na < nb;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  if ((a.size() - i) != (b.size() - j)) return a.size() - i < b.size() - j;
  return a < b;  // equal under the natural order ("a01" and "a1"): fall back to bytes, still deterministic
}

const double* expected_ratio(const h::KernelRecord& r, const std::string& name) {
  if (!r.expected) return nullptr;
  const auto it = r.expected->ratios.find(name);
  return it == r.expected->ratios.end() ? nullptr : &it->second;
}

// A measured ratio, marked where it differs from the kernel's expectation.
std::string measured_ratio(const h::KernelRecord& r, const std::string& name) {
  const auto it = r.derived.find(name);
  if (it == r.derived.end()) return none;
  const std::string text = ratio_text(it->second);
  const double* expected = expected_ratio(r, name);
  return expected != nullptr && text != ratio_text(*expected) ? text + " ≠" : text;
}

std::string expected_pair(const h::KernelRecord& r, std::pair<const char*, const char*> names) {
  const auto one = [&](const char* name) {
    const double* e = expected_ratio(r, name);
    return e != nullptr ? ratio_text(*e) : std::string(none);
  };
  return one(names.first) + " / " + one(names.second);
}

std::string measured_pair(const h::KernelRecord& r, std::pair<const char*, const char*> names) {
  return measured_ratio(r, names.first) + " / " + measured_ratio(r, names.second);
}

// The other ratios a kernel's source states (cp.async, ldmatrix, local memory, ...): "name expected → measured".
std::string other_ratios(const h::KernelRecord& r) {
  if (!r.expected) return none;
  std::string text;
  for (const auto& [name, value] : r.expected->ratios) {
    if (name == shared_pair.first || name == shared_pair.second || name == global_pair.first ||
        name == global_pair.second)
      continue;
    const bankgate::RatioTraits* traits = bankgate::find_ratio(name);
    text += (text.empty() ? "" : "; ") + std::string(traits != nullptr ? traits->display : name) + " " +
            ratio_text(value) + " → " + measured_ratio(r, name);
  }
  return text.empty() ? none : text;
}

// Baselines and the README are read only as regular files of a sane size: a FIFO or /dev/zero in their place
// is refused at once (InputFileError names the file), never waited on or read until memory runs out.
std::string read_text(const fs::path& path) { return h::read_input_file(path); }

// Every <suite>.json in the GPU's folder, by suite name, read inside the baselines folder (links out of it,
// FIFOs and folders in a baseline's place are errors, never followed or waited on).
std::map<std::string, h::SuiteFile> read_gpu_dir(const fs::path& root, const h::GpuKey& gpu) {
  const fs::path dir = root / gpu.relative_dir();
  if (!fs::is_directory(dir)) throw std::runtime_error("no baselines folder " + dir.string());
  const h::BaselineFolder baselines(root);  // refuses a folder an interrupted promotion left half-written
  const h::ConfinedFolder& folder = *baselines.folder();
  std::vector<std::string> problems;
  const auto files = folder.files_below(
      gpu.relative_dir(), [](const std::string& name) { return name.ends_with(".json"); }, problems);
  // Anything odd would otherwise drop that suite's rows without a word.
  if (!problems.empty()) throw std::runtime_error(problems.front());
  if (files.empty()) throw std::runtime_error("no baseline files (*.json) in " + dir.string());
  std::map<std::string, h::SuiteFile> suites;
  for (const auto& relative : files) {
    const fs::path path = folder.display(relative);
    const std::string text = folder.read(relative);
    // Only the version is looked at here; anything else wrong with the file is the reader's to report.
    const nlohmann::json probe = nlohmann::json::parse(text, nullptr, false);
    if (probe.is_object() && probe.contains("schema_version") && probe["schema_version"].is_number_integer() &&
        probe["schema_version"].get<long long>() != h::current_schema_version)
      throw OtherSchema(path.string() + " has schema version " +
                        std::to_string(probe["schema_version"].get<long long>()) + "; this bankgate reads version " +
                        std::to_string(h::current_schema_version) +
                        ". Record the baselines again on the GPU (bankgate refresh), then regenerate the table with "
                        "bankgate readme-table; the table is never written by hand");
    // The metrics the collector measures: a misspelt counter name is an error here as in the gate.
    const auto names = bankgate::gated_counter_names();
    const std::set<std::string> known(names.begin(), names.end());
    h::SuiteFile file = h::parse_suite_file(text, path.string(), &known);
    if (relative != h::suite_file_relative(gpu, file.suite))
      throw std::runtime_error(path.string() + ": holds suite '" + file.suite +
                               "'; a suite's baselines are <Suite>.json");
    if (suites.count(file.suite) != 0)
      throw std::runtime_error(path.string() + ": suite '" + file.suite + "' is also in another file of " +
                               dir.string());
    suites.emplace(file.suite, std::move(file));
  }
  return suites;
}

struct Marker {
  std::size_t line_start;  // offset of the marker's line
  std::size_t line_end;    // offset just past its newline (or the end of the text)
};

Marker find_marker(const std::string& text, const std::string& marker, const std::string& origin) {
  const std::size_t at = text.find(marker);
  if (at == std::string::npos)
    throw MarkerError(origin + " has no line '" + marker + "'; the kernel table goes between '" + kernel_table_begin +
                      "' and '" + kernel_table_end + "', each on a line of its own");
  if (text.find(marker, at + 1) != std::string::npos)
    throw MarkerError(origin + " holds '" + marker + "' more than once; keep one kernel table");
  const std::size_t line_start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
  const std::size_t newline = text.find('\n', at);
  const std::size_t line_end = newline == std::string::npos ? text.size() : newline + 1;
  std::string line = text.substr(line_start, line_end - line_start);
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front()))) line.erase(0, 1);
  if (line != marker) throw MarkerError(origin + ": '" + marker + "' must be on a line of its own");
  return {line_start, line_end};
}

// The README's current table (what lies between the markers); throws MarkerError like replace_kernel_table.
std::string current_table(const std::string& readme, const std::string& origin) {
  const Marker begin = find_marker(readme, kernel_table_begin, origin);
  const Marker end = find_marker(readme, kernel_table_end, origin);
  if (end.line_start < begin.line_end)
    throw MarkerError(origin + ": '" + kernel_table_end + "' comes before '" + kernel_table_begin + "'");
  return readme.substr(begin.line_end, end.line_start - begin.line_end);
}

std::string first_difference(const std::string& have, const std::string& want) {
  std::istringstream a(have), b(want);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ga = static_cast<bool>(std::getline(a, la)), gb = static_cast<bool>(std::getline(b, lb));
    if (!ga && !gb) return "";
    if (!ga || !gb || la != lb)
      return "first difference, line " + std::to_string(line) +
             " of the table:\n  README:    " + (ga ? h::terminal_line(la) : "(no line)") +
             "\n  baselines: " + (gb ? h::terminal_line(lb) : "(no line)");
  }
}

}  // namespace

std::string render_kernel_table(const std::map<std::string, h::SuiteFile>& suites, const h::GpuKey& gpu) {
  // A row per kernel: a test whose case launched several has one for each, in launch order.
  std::vector<std::pair<std::string, const h::KernelRecord*>> rows;
  std::set<std::string> gpu_names;
  for (const auto& [suite, file] : suites) {
    if (!file.provenance.gpu_name.empty()) gpu_names.insert(file.provenance.gpu_name);
    for (const auto& [test, record] : file.tests)
      for (const h::KernelRecord* kernel : record.kernels()) rows.emplace_back(suite + "." + test, kernel);
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const auto& a, const auto& b) { return natural_less(a.first, b.first); });
  std::string measured_on;
  for (const auto& name : gpu_names) measured_on += (measured_on.empty() ? "" : ", ") + name;
  if (measured_on.empty()) measured_on = gpu.arch + "/" + gpu.model;

  std::ostringstream out;
  out << "| test | kernel | shared ld / st expected | measured (" << cell(measured_on)
      << ") | global ld / st expected | "
      << "measured | also stated (expected → measured) | median | why |\n"
      << "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const auto& [name, r] : rows)
    out << "| " << cell(name) << " | " << h::markdown_code(r->kernel, h::MarkdownPlace::table) << " | "
        << expected_pair(*r, shared_pair) << " | " << measured_pair(*r, shared_pair) << " | "
        << expected_pair(*r, global_pair) << " | " << measured_pair(*r, global_pair) << " | " << cell(other_ratios(*r))
        << " | " << (r->timing ? duration_text(r->timing->median_ns) : none) << " | "
        << (r->expected && !r->expected->why.empty() ? cell(r->expected->why) : none) << " |\n";
  out << "\nShared memory: transactions (wavefronts) per request; global memory: 32-byte sectors per request; loads / "
      << "stores, from " << h::markdown_code("baselines/" + gpu.arch + "/" + gpu.model + "/")
      << " (SASS-instrumented counters, exact). "
      << "≠: the measured value differs from the kernel's expectation at the precision shown; " << none
      << ": not stated or not recorded.\n";
  return out.str();
}

std::string replace_kernel_table(const std::string& readme, const std::string& table, const std::string& origin) {
  current_table(readme, origin);  // validates the markers
  // cell() keeps the markers out of the table; should a later change let one through, refuse rather than write
  // a README whose next rewrite would fail or cut it in the wrong place.
  for (const char* marker : {kernel_table_begin, kernel_table_end})
    if (table.find(marker) != std::string::npos)
      throw MarkerError("the generated kernel table holds the marker '" + std::string(marker) + "'; " + origin +
                        " was not changed");
  const Marker begin = find_marker(readme, kernel_table_begin, origin);
  const Marker end = find_marker(readme, kernel_table_end, origin);
  return readme.substr(0, begin.line_end) + table + readme.substr(end.line_start);
}

// The file a README names: itself, or where it is a symbolic link (a page kept elsewhere in the repository), the
// file the link leads to, which is read and written through it (the link stays; the file keeps its mode). A link
// can come with a pull request: one leading out of the repository around it (or out of its folder, outside a
// repository) is refused, and nothing there is read or written.
fs::path readme_file(const fs::path& readme) {
  std::error_code ec;
  if (!fs::is_symlink(fs::symlink_status(readme, ec))) return readme;
  fs::path target = fs::canonical(readme, ec);
  if (ec)
    throw std::runtime_error(readme.string() + " is a symbolic link to nothing that exists (" + ec.message() + ")");
  const fs::path folder = fs::absolute(readme).parent_path();
  const std::string top = program_output({"git", "-C", folder.string(), "rev-parse", "--show-toplevel"});
  const fs::path around = top.empty() ? folder : fs::path(top);
  if (!h::lies_inside(target, around))
    throw std::runtime_error(
        readme.string() + " is a symbolic link to " + target.string() + ", outside " +
        (top.empty() ? "its folder " : "the repository ") + around.string() +
        ": bankgate reads and writes no file there; name the file itself, or replace the link with it");
  return target;
}

int run_readme_table(const ReadmeTableRequest& o, std::ostream& out, std::ostream& err) {
  const std::string& program = o.program;
  try {
    if (o.check && o.readme.empty())
      throw std::invalid_argument("--check needs --readme FILE (the file whose table is checked)");
    const h::GpuKey gpu = h::choose_gpu(o.baselines, o.gpu);
    const fs::path dir = o.baselines / gpu.relative_dir();
    const std::string table = render_kernel_table(read_gpu_dir(o.baselines, gpu), gpu);
    const std::string regenerate =
        h::command_line({program, "readme-table", "--baselines", o.baselines.string(), "--gpu",
                         gpu.arch + "/" + gpu.model, "--readme", o.readme.string()});
    // Folder and file names as the console shows them: on one line, escaped.
    const std::string shown_readme = h::terminal_line(o.readme.string()), shown_dir = h::terminal_line(dir.string());
    if (o.readme.empty()) {
      out << table;
      return exit_ok;
    }
    const fs::path file = readme_file(o.readme);
    const std::string readme = read_text(file);
    const std::string updated = replace_kernel_table(readme, table, o.readme.string());
    if (o.check) {
      if (updated == readme) {
        out << shown_readme << ": the kernel table matches the baselines in " << shown_dir << "\n";
        return exit_ok;
      }
      err << "bankgate readme-table: " << shown_readme << ": the kernel table differs from what the baselines in "
          << shown_dir << " give; " << first_difference(current_table(readme, o.readme.string()), table)
          << "\nregenerate it (never edit it by hand): " << h::terminal_line(regenerate) << "\n";
      return exit_regression;  // the table differs
    }
    if (updated == readme) {
      out << shown_readme << ": the kernel table is up to date\n";
      return exit_ok;
    }
    h::write_file_atomically(file, [&](std::ostream& page) { page << updated; });
    out << "wrote the kernel table from " << shown_dir << " into " << shown_readme << "\n";
    return exit_ok;
  } catch (const OtherSchema& e) {
    err << "bankgate readme-table: cannot render the table: " << h::terminal_safe(e.what())
        << "\nnothing was written\n";
    return exit_other_schema;
  } catch (const std::exception& e) {
    err << "bankgate readme-table: " << h::terminal_safe(e.what()) << "\nnothing was written\n";
    return exit_not_measured;  // bad input: nothing could be read or written
  }
}

}  // namespace bankgate::cli
