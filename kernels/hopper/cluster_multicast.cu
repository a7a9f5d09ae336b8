#include <bankgate/kernels/cluster_multicast.cuh>

#include <bankgate/kernels/device_buffer.hpp>

#include "hopper_ptx.cuh"

// Cluster c (blocks 2c and 2c+1) owns input floats [1024c, 1024c+1024). Each block's thread 0 announces 4096
// bytes on its own mbarrier; after a cluster barrier (both mbarriers initialised), thread 0 of rank 0 issues
// one multicast bulk copy that writes the chunk, and signals the bytes, at the same shared offsets of both
// blocks: one TMA load instruction per cluster (64). The engine's traffic counter counts the bytes each SM
// receives, so a multicast of 4096 bytes to two blocks counts 8192, all of them multicast.
// Then thread t of the block of rank r computes, for k = 0..7 and j = 128k + t,
//   out[1024(2c+r) + j] = (r+1) * tile[j] + partner's tile[1023 - j]
// reading the partner's copy with ld.shared::cluster: 8 distributed-shared loads per thread, 8 warp-level
// instructions per warp, 128 x 4 x 8 = 4096. Local reads are LDS.32 of 32 consecutive words (1 wavefront per
// request); stores STG.32 of 32 consecutive floats (4 sectors per request). A final cluster barrier keeps each
// block's shared memory alive until its partner has read it.
//
// Planted regression: multicast off, each block copies the chunk for itself (two TMA loads per cluster of
// 4096 bytes each, none multicast; the same output).

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#error "clusters and the bulk copy engine need sm_90 or newer"
#endif

namespace {

namespace ptx = bankgate::kernels::ptx;
constexpr int threads = bankgate::kernels::cluster_threads;
constexpr int chunk = bankgate::kernels::cluster_chunk_floats;

}  // namespace

static __global__ void __cluster_dims__(2, 1, 1) clusterMulticast(const float* in, float* out) {
  __shared__ __align__(128) float tile[chunk];
  __shared__ std::uint64_t full;
  const int t = static_cast<int>(threadIdx.x);
  const std::uint32_t rank = ptx::cluster_block_rank();
  const int cluster = static_cast<int>(blockIdx.x) / 2;
  if (t == 0) {
    ptx::mbarrier_init(&full, 1);
    ptx::fence_barrier_init();
  }
  ptx::cluster_sync();
  if (t == 0) {
    ptx::mbarrier_arrive_expect_tx(&full, sizeof(tile));
    const float* source = in + static_cast<size_t>(cluster) * chunk;
#ifdef BANKGATE_PLANTED_REGRESSION
    ptx::bulk_copy_global_to_shared(tile, source, sizeof(tile), &full);
#else
    if (rank == 0) ptx::bulk_copy_global_to_shared_multicast(tile, source, sizeof(tile), &full, 0b11);
#endif
  }
  ptx::mbarrier_wait(&full, 0);
  float* block_out = out + static_cast<size_t>(blockIdx.x) * chunk;
  for (int k = 0; k < chunk / threads; ++k) {
    const int j = k * threads + t;
    block_out[j] = static_cast<float>(rank + 1) * tile[j] + ptx::load_peer_shared(&tile[chunk - 1 - j], rank ^ 1u);
  }
  ptx::cluster_sync();
}

namespace bankgate::kernels {

std::string_view cluster_multicast_kernel_name() { return "clusterMulticast"; }

AccessExpectation cluster_multicast_expectation() {
  return shared_access_expectation(1, 0, "one 4096-byte bulk copy multicast to both blocks of a cluster: 8192 bytes "
                                         "delivered per TMA load; LDS.32 of 32 consecutive words: 1; no STS; STG of "
                                         "32 consecutive floats: 4 sectors",
                                   {{key::tma_load_bytes, 8192}, {key::global_store_sectors, 4}});
}

void launch_cluster_multicast(const float* in, float* out, cudaStream_t stream) {
  clusterMulticast<<<cluster_blocks, threads, 0, stream>>>(in, out);
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<float> cluster_multicast_reference(const std::vector<float>& in) {
  std::vector<float> out(static_cast<std::size_t>(cluster_output_floats));
  for (int block = 0; block < cluster_blocks; ++block)
    for (int j = 0; j < chunk; ++j) {
      const std::size_t base = static_cast<std::size_t>(block / 2) * chunk;
      out[static_cast<std::size_t>(block) * chunk + j] =
          static_cast<float>(block % 2 + 1) * in[base + j] + in[base + chunk - 1 - j];
    }
  return out;
}

}  // namespace bankgate::kernels
