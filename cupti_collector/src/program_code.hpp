#pragma once
// The device code this process holds: the fatbinaries embedded in its executable and in the shared libraries it has
// loaded (their .nv_fatbin sections), read once. No CUDA call: it answers without a GPU.

#include <string>
#include <vector>

#include "cuda_binary.hpp"

namespace bankgate::detail {

struct ProgramCode {
  std::vector<Fatbin> fatbins;
  // Where some device code could not be read, why (a library whose device code is larger than is read here, a
  // fatbinary whose every entry is compressed): then a kernel may exist without being found. Empty: all was read.
  std::vector<std::string> unread;
};

// Read on first use, then kept: the objects a process has loaded by the time its first test runs are those its
// kernels come from (a library opened with dlopen later is not seen).
const ProgramCode& program_code();

// Whether `code` defines a kernel that results name `kernel_name` (kernel_base_name of its demangled name).
bool defines_kernel(const DeviceCode& code, const std::string& kernel_name);

}  // namespace bankgate::detail
