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
  std::string search = stub_folder.string();
  if (const char* path = std::getenv("LD_LIBRARY_PATH"); path != nullptr && *path != '\0')
    search.append(":").append(path);
  return {{"LD_LIBRARY_PATH", search}};
}

}  // namespace bankgate::cli
