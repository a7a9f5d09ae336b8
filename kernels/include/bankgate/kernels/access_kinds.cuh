#pragma once
// The access kinds the seed kernels do not use, each in a kernel of its own so that its counters have
// something to count (and to equal Nsight Compute's on): shared-memory atomics and global reductions (a
// byte histogram, seed 001's privatised counters), local memory (a per-thread array indexed at run time, which
// the compiler cannot keep in registers) and a divergent branch (odd and even lanes take different paths).

#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include <bankgate/kernels/expectation.hpp>

namespace bankgate::kernels {

inline constexpr int access_kinds_threads = 256;
inline constexpr int access_kinds_blocks = 256;
inline constexpr int access_kinds_elements = access_kinds_threads * access_kinds_blocks;  // one per thread
inline constexpr int histogram_bins = 256;
inline constexpr int stack_array_length = 64;

enum class AccessKind {
  histogram,  // sharedHistogram: ATOMS per element into a block's bins, then RED.ADD of each bin to global
  stack,      // stackArray: STL/LDL of a per-thread array indexed by data
  divergent,  // divergentBranch: odd lanes loop longer than even ones, by a count their data decides
};

inline constexpr std::array<AccessKind, 3> all_access_kinds{AccessKind::histogram, AccessKind::stack, AccessKind::divergent};

std::string_view kernel_name(AccessKind kernel);
AccessExpectation expected_access(AccessKind kernel);

// `in` holds access_kinds_elements values (bytes for the histogram, indices below stack_array_length for the
// stack array, anything for the branch); `out` histogram_bins (histogram, zeroed by the caller) or
// access_kinds_elements values.
void launch_access_kind(AccessKind kernel, const std::uint32_t* in, std::uint32_t* out, cudaStream_t stream = nullptr);

std::vector<std::uint32_t> access_kind_reference(AccessKind kernel, const std::vector<std::uint32_t>& in);
std::size_t access_kind_output_elements(AccessKind kernel);

}  // namespace bankgate::kernels
