#pragma once
// Thread-block clusters: two blocks share one 4 KiB chunk of the input, brought into both blocks' shared
// memory by a single multicast bulk copy (cp.async.bulk ... .multicast::cluster), and each block combines its
// copy with its partner's through distributed shared memory (ld.shared::cluster). Output checked exactly.

#include <cuda_runtime_api.h>

#include <string_view>
#include <vector>

#include <bankgate/kernels/expectation.hpp>

namespace bankgate::kernels {

inline constexpr int cluster_threads = 128;
inline constexpr int cluster_blocks = 128;           // 64 clusters of 2
inline constexpr int cluster_chunk_floats = 1024;    // 4 KiB per cluster
inline constexpr int cluster_input_floats = cluster_blocks / 2 * cluster_chunk_floats;
inline constexpr int cluster_output_floats = cluster_blocks * cluster_chunk_floats;

std::string_view cluster_multicast_kernel_name();  // "clusterMulticast"
AccessExpectation cluster_multicast_expectation();

void launch_cluster_multicast(const float* in, float* out, cudaStream_t stream = nullptr);
std::vector<float> cluster_multicast_reference(const std::vector<float>& in);

}  // namespace bankgate::kernels
