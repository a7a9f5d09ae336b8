#include "program_code.hpp"

#include <link.h>

#include <algorithm>
#include <filesystem>

#include <bankgate/preflight.hpp>
#include <bankgate/results.hpp>

#include "names.hpp"

namespace bankgate::detail {
namespace {

// Device code beyond this in one library is not read: the CUDA math libraries carry hundreds of megabytes of it,
// and their kernels are no project's to name.
constexpr std::size_t max_device_code_bytes = std::size_t{64} << 20;

// The files of the objects loaded into this process: the executable first, then each shared library.
std::vector<std::filesystem::path> loaded_objects() {
  std::vector<std::filesystem::path> objects{"/proc/self/exe"};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* out) {
        if (info->dlpi_name != nullptr && info->dlpi_name[0] == '/')
          static_cast<std::vector<std::filesystem::path>*>(out)->emplace_back(info->dlpi_name);
        return 0;
      },
      &objects);
  return objects;
}

ProgramCode read_program_code() {
  ProgramCode program;
  for (const std::filesystem::path& object : loaded_objects()) {
    bool too_large = false;
    const auto section = read_elf_section(object, ".nv_fatbin", max_device_code_bytes, too_large);
    if (too_large) program.unread.push_back(object.string() + " holds more device code than is read here");
    if (!section) continue;
    for (Fatbin& fatbin : read_fatbins(*section)) {
      const bool any_readable =
          std::any_of(fatbin.begin(), fatbin.end(), [](const DeviceCode& c) { return c.readable; });
      if (!any_readable)
        program.unread.push_back(object.string() + " holds compressed device code (nvcc -compress-mode)");
      program.fatbins.push_back(std::move(fatbin));
    }
  }
  return program;
}

}  // namespace

const ProgramCode& program_code() {
  static const ProgramCode program = read_program_code();
  return program;
}

bool defines_kernel(const DeviceCode& code, const std::string& kernel_name) {
  return std::any_of(code.kernels.begin(), code.kernels.end(), [&](const std::string& mangled) {
    return kernel_base_name(demangle(mangled.c_str())) == kernel_name;
  });
}

}  // namespace bankgate::detail

namespace bankgate {

ProgramKernels kernels_in_this_program() {
  const detail::ProgramCode& program = detail::program_code();
  ProgramKernels kernels;
  kernels.unread = program.unread;
  for (const detail::Fatbin& fatbin : program.fatbins)
    for (const detail::DeviceCode& code : fatbin)
      for (const std::string& mangled : code.kernels)
        kernels.names.insert(kernel_base_name(detail::demangle(mangled.c_str())));
  return kernels;
}

}  // namespace bankgate
