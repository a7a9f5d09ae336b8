#pragma once
// A typed device allocation for tests: poisoned before a run so that an element the kernel failed to write
// is caught, and copied back for comparison with the CPU reference.

#include <cuda_runtime_api.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace bankgate::kernels {

inline void check_cuda(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(what) + " failed: " + cudaGetErrorName(status) + " (" +
                             cudaGetErrorString(status) + ")");
}

template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    check_cuda(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)), "cudaMalloc");
  }
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) {
    check_cuda(cudaMemcpy(data_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy to device");
  }
  ~DeviceBuffer() { cudaFree(data_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return data_; }
  std::size_t size() const { return count_; }

  // The same elements as `source` (a buffer of the same size), copied on the device: for another placement of an
  // input, far faster than a second copy from the host.
  void copy_from(const DeviceBuffer& source) {
    if (source.count_ != count_) throw std::invalid_argument("DeviceBuffer::copy_from: buffers of different sizes");
    check_cuda(cudaMemcpy(data_, source.data_, count_ * sizeof(T), cudaMemcpyDeviceToDevice), "cudaMemcpy on device");
  }

  // Every byte 0xA5: no kernel here writes that pattern, and it is neither zero nor a small integer.
  void poison() { check_cuda(cudaMemset(data_, 0xA5, count_ * sizeof(T)), "cudaMemset"); }

  std::vector<T> to_host() const {
    check_cuda(cudaDeviceSynchronize(), "kernel execution");
    std::vector<T> host(count_);
    check_cuda(cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy to host");
    return host;
  }

 private:
  T* data_ = nullptr;
  std::size_t count_;
};

}  // namespace bankgate::kernels
