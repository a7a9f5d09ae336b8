// What baseline.hpp's records compute of themselves, and the names and paths they may take. Reading and writing
// them as JSON is baseline_json.cpp's.

#include <bankgate/gate/rules/baseline.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace bankgate::gate {

CompareFloorProblem compare_floor_problem(const TimingTolerance& tolerance) {
  const double floor = tolerance.compare_floor;
  if (!(floor >= 0.0 && floor <= limits::max_compare_floor)) return CompareFloorProblem::out_of_bounds;
  if (floor > 0.0 && tolerance.reason.empty()) return CompareFloorProblem::without_reason;
  return CompareFloorProblem::none;
}

std::vector<const KernelRecord*> TestRecord::kernels() const {
  std::vector<const KernelRecord*> all{this};
  for (const KernelRecord& k : later_kernels) all.push_back(&k);
  return all;
}

std::vector<KernelRecord*> TestRecord::kernels() {
  std::vector<KernelRecord*> all{this};
  for (KernelRecord& k : later_kernels) all.push_back(&k);
  return all;
}

std::vector<std::string> kernel_labels(const TestRecord& record) {
  std::vector<std::string> labels;
  std::map<std::string, int> launches;
  for (const KernelRecord* k : record.kernels()) {
    const int n = ++launches[k->kernel];
    labels.push_back(n == 1 ? k->kernel : k->kernel + " (launch " + std::to_string(n) + ")");
  }
  return labels;
}

std::string SourceLineFigures::where() const {
  if (line == 0) return file.empty() ? "<unknown line>" : file + ":?";
  return file + ":" + std::to_string(line);
}

std::vector<SourceLineFigures> merge_by_line(const std::vector<SourceLineFigures>& instructions) {
  std::map<std::tuple<std::string, std::uint32_t, std::string>, SourceLineFigures> merged;
  for (const SourceLineFigures& i : instructions) {
    auto [it, fresh] = merged.try_emplace({i.file, i.line, i.kind}, i);
    if (fresh) continue;
    SourceLineFigures& m = it->second;
    m.executions += i.executions;
    m.wavefronts += i.wavefronts;
    m.ideal_wavefronts += i.ideal_wavefronts;
    m.sectors += i.sectors;
    m.ideal_sectors += i.ideal_sectors;
    if (!i.inlined.empty() && ("; " + m.inlined + "; ").find("; " + i.inlined + "; ") == std::string::npos)
      m.inlined = m.inlined.empty() ? i.inlined : m.inlined + "; " + i.inlined;
    if (!i.opcode.empty() && ("/" + m.opcode + "/").find("/" + i.opcode + "/") == std::string::npos)
      m.opcode = m.opcode.empty() ? i.opcode : m.opcode + "/" + i.opcode;
  }
  std::vector<SourceLineFigures> lines;
  for (auto& [key, l] : merged) lines.push_back(std::move(l));
  return lines;
}

bool is_valid_test_name(const std::string& name) {
  if (name.empty() || name.size() > 256 || name.front() == '/' || name.back() == '/') return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(name[i]);
    if (c == '/' ? name[i + 1] == '/' : !(std::isalnum(c) || c == '_')) return false;
  }
  return true;
}

bool is_valid_gpu_name(const std::string& name) {
  if (name.empty() || name.size() > 128 || name.front() == '-') return false;
  return std::all_of(name.begin(), name.end(), [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '-'; });
}

std::filesystem::path suite_file_path(const std::filesystem::path& root, const GpuKey& gpu, const std::string& suite) {
  return root / gpu.relative_dir() / (suite + ".json");
}

}  // namespace bankgate::gate
