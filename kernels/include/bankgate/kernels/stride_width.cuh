#pragma once
// Seed 002's bank rules: stride-k reads of 32-bit words (odd strides are conflict-free, a stride with factor
// 2^e conflicts 2^e-way up to 32), all lanes of a warp reading one word (broadcast), and 64-bit (double) and
// 128-bit (float4) elements accessed along a row or down a column of a 32x32 tile, with and without padding.

#include <cuda_runtime_api.h>
#include <vector_types.h>

#include <array>
#include <string_view>
#include <vector>

#include <bankgate/kernels/expectation.hpp>

namespace bankgate::kernels {

// 32-bit word reads: one block of 1024 threads (32 warps) reading a shared array filled from `in`.
enum class WordAccess {
  stride_1,
  stride_2,
  stride_3,
  stride_4,
  stride_8,
  stride_16,
  stride_32,
  stride_33,
  broadcast,
};

inline constexpr std::array<WordAccess, 9> all_word_access_kernels{
    WordAccess::stride_1,  WordAccess::stride_2,  WordAccess::stride_3,  WordAccess::stride_4, WordAccess::stride_8,
    WordAccess::stride_16, WordAccess::stride_32, WordAccess::stride_33, WordAccess::broadcast};

inline constexpr int word_access_threads = 1024;
inline constexpr int word_access_max_stride = 33;
// strideRead<33> fills 32*33 words rounded up to whole rounds of the block (see stride_width.cu).
inline constexpr int word_access_input_words = 2 * word_access_threads;
inline constexpr int word_access_output_words = word_access_threads;

std::string_view kernel_name(WordAccess kernel);  // "strideRead<3>", ..., "broadcastRead"
AccessExpectation expected_access(WordAccess kernel);

// `in` holds word_access_input_words ints, `out` word_access_output_words.
void launch_word_access(WordAccess kernel, const int* in, int* out, cudaStream_t stream = nullptr);
std::vector<int> word_access_reference(WordAccess kernel, const std::vector<int>& in);

// Wide elements: one block of 32x32 threads; each thread stores its element of `in` into a 32x32 shared tile
// and, after a barrier, reads the same tile element back into `out`, so out = in. Row-wise: a warp walks a
// tile row; column-wise: a warp walks a tile column; padded: the column walk on a tile with one spare element
// per row.
enum class WideAccess {
  row_double,
  col_double,
  col_pad_double,
  row_float4,
  col_float4,
  col_pad_float4,
};

inline constexpr std::array<WideAccess, 6> all_wide_access_kernels{
    WideAccess::row_double, WideAccess::col_double, WideAccess::col_pad_double,
    WideAccess::row_float4, WideAccess::col_float4, WideAccess::col_pad_float4};

inline constexpr int wide_access_elements = 32 * 32;

bool uses_float4(WideAccess kernel);               // otherwise double
std::string_view kernel_name(WideAccess kernel);  // e.g. "rowAccess<double>", "colAccessPad<float4>"
AccessExpectation expected_access(WideAccess kernel);

// `in` and `out` hold wide_access_elements elements. Throws std::invalid_argument when the element type does
// not match the kernel.
void launch_wide_access(WideAccess kernel, const double* in, double* out, cudaStream_t stream = nullptr);
void launch_wide_access(WideAccess kernel, const float4* in, float4* out, cudaStream_t stream = nullptr);

// The wide kernels copy: the reference is the input.
template <typename T>
std::vector<T> wide_access_reference(const std::vector<T>& in) {
  return in;
}

}  // namespace bankgate::kernels
