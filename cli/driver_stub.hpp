#pragma once
// A suite that links the CUDA driver library (CUDA::cuda_driver) cannot start where the driver is missing (a CI
// machine without a GPU): its tests could be neither listed after the build nor reported Skipped. The CUDA
// toolkit ships a stub of the driver, every call of which fails with CUDA_ERROR_STUB_LIBRARY;
// bankgate_add_gpu_suite() gives the command a folder holding it as libcuda.so.1, which the suite processes the
// command starts find first, only where the real driver cannot be loaded: a real driver is never shadowed.

#include <filesystem>

#include "process.hpp"

namespace bankgate::cli {

// Where `stub_folder` is given, holds libcuda.so.1 and the real driver cannot be loaded: the LD_LIBRARY_PATH, with
// the folder first, for the suite programs this process starts. Otherwise nothing.
ChildEnvironment driver_stub_where_no_driver(const std::filesystem::path& stub_folder);

}  // namespace bankgate::cli
