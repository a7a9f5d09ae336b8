#include "l2_flusher.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>

#include "check.hpp"

namespace bankgate::detail {

L2Flusher::~L2Flusher() {
  if (buffer_ != nullptr) cudaFree(buffer_);
}

void L2Flusher::enqueue() {
  if (buffer_ == nullptr) {
    int l2_bytes = 0;
    BANKGATE_CUDA(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device_));
    bytes_ = 2 * static_cast<std::size_t>(std::max(l2_bytes, 1 << 20));
    BANKGATE_CUDA(cudaMalloc(&buffer_, bytes_));
  }
  BANKGATE_CUDA(cudaMemsetAsync(buffer_, 0, bytes_, nullptr));
}

}  // namespace bankgate::detail
