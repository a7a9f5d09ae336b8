#pragma once
// Seed 003's array reversal through shared memory: staticReverse and dynamicReverse for one block of 64 ints
// (the C++ forms of the seed's Fortran kernels), and a multi-block reversal of a large array in which each
// block reverses its chunk in shared memory and writes it to the mirrored chunk.
//
// The seed reverses in place; here input and output are separate buffers, so that the repeated launches of a
// gated case all see the same input and the output can be poisoned before the checked launch.

#include <cuda_runtime_api.h>

#include <array>
#include <string_view>
#include <vector>

#include <bankgate/kernels/expectation.hpp>

namespace bankgate::kernels {

inline constexpr int reverse_small_elements = 64;        // staticReverse / dynamicReverse: one block of 64
inline constexpr int reverse_large_elements = 1 << 20;   // multiBlockReverse
inline constexpr int reverse_large_block = 256;          // threads (and ints) per block

enum class Reverse {
  static_reverse,
  dynamic_reverse,
  multi_block,
};

inline constexpr std::array<Reverse, 3> all_reverse_kernels{Reverse::static_reverse, Reverse::dynamic_reverse,
                                                             Reverse::multi_block};

std::string_view kernel_name(Reverse kernel);  // "staticReverse", "dynamicReverse", "multiBlockReverse"
AccessExpectation expected_access(Reverse kernel);

// How many ints `in` and `out` hold for this kernel.
int reverse_elements(Reverse kernel);

// Writes `in` reversed into `out`, both reverse_elements(kernel) ints.
void launch_reverse(Reverse kernel, const int* in, int* out, cudaStream_t stream = nullptr);

std::vector<int> reverse_reference(const std::vector<int>& in);

}  // namespace bankgate::kernels
