#pragma once
// A suite that links the CUDA driver library (CUDA::cuda_driver) cannot start where the driver is missing (a CI
// machine without a GPU): its tests could be neither listed after the build nor reported Skipped. The CUDA
// toolkit ships a stub of the driver, every call of which fails with CUDA_ERROR_STUB_LIBRARY;
// bankgate_add_gpu_suite() gives the command a folder holding it as libcuda.so.1, which the suite processes the
// command starts find first, only where the real driver cannot be loaded: a real driver is never shadowed.

#include <filesystem>

namespace bankgate::cli {

// Where `stub_folder` is given, holds libcuda.so.1 and the real driver cannot be loaded: puts the folder first on
// LD_LIBRARY_PATH of the programs this process starts from now on, and returns true. Otherwise changes nothing.
bool use_driver_stub_where_no_driver(const std::filesystem::path& stub_folder);

}  // namespace bankgate::cli
