#pragma once
// Tensor maps for the catalogue's TMA kernels: a 2-D row-major matrix in global memory and the box one copy
// moves. The driver's cuTensorMapEncodeTiled is reached through the runtime's entry-point query, so the
// catalogue links no libcuda and builds and lists its tests where no driver is installed.

#include <cuda.h>

#include <cstdint>

namespace bankgate::kernels {

struct TensorBox {
  CUtensorMapDataType type;
  std::uint32_t element_bytes;
  std::uint64_t columns, rows;        // of the matrix (columns contiguous)
  std::uint32_t box_columns, box_rows;
  CUtensorMapSwizzle swizzle;
};

// Throws std::runtime_error naming the failing call.
CUtensorMap make_tensor_map(const void* matrix, const TensorBox& box);

}  // namespace bankgate::kernels
