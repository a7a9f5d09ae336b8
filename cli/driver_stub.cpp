#include "driver_stub.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <string>

namespace bankgate::cli {
namespace {

// Whether the dynamic loader finds a CUDA driver as the suite would ask for it. Loading it starts nothing on a
// GPU (that takes cuInit), and it is unloaded at once.
bool driver_loads() {
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver == nullptr) return false;
  dlclose(driver);
  return true;
}

}  // namespace

ChildEnvironment driver_stub_where_no_driver(const std::filesystem::path& stub_folder) {
  std::error_code ec;
  if (stub_folder.empty() || !std::filesystem::exists(stub_folder / "libcuda.so.1", ec) || driver_loads()) return {};
  const char* path = std::getenv("LD_LIBRARY_PATH");
  return {
      {"LD_LIBRARY_PATH", stub_folder.string() + (path != nullptr && *path != '\0' ? ":" + std::string(path) : "")}};
}

}  // namespace bankgate::cli
