#include "tensor_map.hpp"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace bankgate::kernels {
namespace {

using EncodeTiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

EncodeTiled encode_tiled() {
  static const EncodeTiled function = [] {
    void* found = nullptr;
    cudaDriverEntryPointQueryResult status{};
    const cudaError_t error = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &found, 12000,
                                                               cudaEnableDefault, &status);
    if (error != cudaSuccess || status != cudaDriverEntryPointSuccess || found == nullptr)
      throw std::runtime_error("the CUDA driver does not provide cuTensorMapEncodeTiled (needs a Hopper-capable driver)");
    return reinterpret_cast<EncodeTiled>(found);
  }();
  return function;
}

}  // namespace

CUtensorMap make_tensor_map(const void* matrix, const TensorBox& box) {
  CUtensorMap map{};
  const cuuint64_t size[2] = {box.columns, box.rows};
  const cuuint64_t row_pitch[1] = {box.columns * box.element_bytes};
  const cuuint32_t box_size[2] = {box.box_columns, box.box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult result = encode_tiled()(&map, box.type, 2, const_cast<void*>(matrix), size, row_pitch, box_size,
                                         element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, box.swizzle,
                                         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS)
    throw std::runtime_error("cuTensorMapEncodeTiled failed with CUresult " + std::to_string(static_cast<int>(result)));
  return map;
}

}  // namespace bankgate::kernels
