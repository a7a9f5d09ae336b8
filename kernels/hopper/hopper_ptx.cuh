#pragma once
// The Hopper instructions the catalogue's TMA, wgmma and cluster kernels use, as inline PTX (PTX ISA 8.0+):
// mbarriers that count arrivals and transferred bytes, the bulk copy engine (TMA) in both directions, the
// proxy fence between ordinary shared-memory stores and the copy engine, and distributed shared memory.
// Device code only; every function is one PTX instruction or one wait loop.

#include <cstdint>

namespace bankgate::kernels::ptx {

__device__ inline std::uint32_t shared_address(const void* pointer) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(pointer));
}

// An mbarrier that completes a phase after `arrivals` arrivals and every byte announced by expect_tx.
__device__ inline void mbarrier_init(std::uint64_t* barrier, std::uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(barrier)), "r"(arrivals) : "memory");
}

// Makes initialised mbarriers visible to the copy engine and to the other blocks of the cluster.
__device__ inline void fence_barrier_init() { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }

// One arrival that also announces `bytes` still to land through complete_tx.
__device__ inline void mbarrier_arrive_expect_tx(std::uint64_t* barrier, std::uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(barrier)), "r"(bytes)
               : "memory");
}

__device__ inline void mbarrier_arrive(std::uint64_t* barrier) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(barrier)) : "memory");
}

// Waits until the phase of parity `phase` has completed. try_wait suspends the thread for a while; the loop
// retries until the phase is done (the spin that makes waiting kernels' instruction counts timing-dependent).
__device__ inline void mbarrier_wait(std::uint64_t* barrier, std::uint32_t phase) {
  asm volatile(
      "{\n"
      ".reg .pred done;\n"
      "retry_%=:\n"
      "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
      "@!done bra retry_%=;\n"
      "}\n" ::"r"(shared_address(barrier)),
      "r"(phase)
      : "memory");
}

// Bulk copy (no tensor map): `bytes` (a multiple of 16) from global `source` to shared `destination`, both
// 16-byte aligned; completion is signalled on `barrier`'s transaction count.
__device__ inline void bulk_copy_global_to_shared(void* destination, const void* source, std::uint32_t bytes,
                                                  std::uint64_t* barrier) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   shared_address(destination)),
               "l"(source), "r"(bytes), "r"(shared_address(barrier))
               : "memory");
}

// The same copy delivered to the same shared offset (data and barrier) of every block of the cluster named in
// `block_mask`: one read of global memory for several blocks.
__device__ inline void bulk_copy_global_to_shared_multicast(void* destination, const void* source, std::uint32_t bytes,
                                                            std::uint64_t* barrier, std::uint16_t block_mask) {
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, [%3], %4;" ::
          "r"(shared_address(destination)),
      "l"(source), "r"(bytes), "r"(shared_address(barrier)), "h"(block_mask)
      : "memory");
}

// A 2-D box of the tensor described by `tensor_map` (a __grid_constant__ kernel parameter), starting at
// element (x, y) (x the contiguous dimension), into shared memory, laid out as the map's swizzle says.
__device__ inline void tensor_load_2d(void* destination, const void* tensor_map, int x, int y, std::uint64_t* barrier) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::
          "r"(shared_address(destination)),
      "l"(tensor_map), "r"(x), "r"(y), "r"(shared_address(barrier))
      : "memory");
}

// A 2-D box from shared memory to the tensor at element (x, y), in the calling thread's bulk group.
__device__ inline void tensor_store_2d(const void* tensor_map, int x, int y, const void* source) {
  asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" ::"l"(tensor_map),
               "r"(x), "r"(y), "r"(shared_address(source))
               : "memory");
}

// Closes the calling thread's bulk group and waits until its stores have read their shared source.
__device__ inline void bulk_store_commit_and_wait() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

// Orders this thread's ordinary shared-memory stores before later reads by the copy engine or the tensor cores.
__device__ inline void fence_proxy_async_shared() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

// The block's rank within its cluster, and the cluster-wide barrier (every thread of every block).
__device__ inline std::uint32_t cluster_block_rank() {
  std::uint32_t rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  return rank;
}

__device__ inline void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// Reads a float of block `rank`'s shared memory at the offset `local` has in this block's (distributed
// shared memory: ld.shared::cluster).
__device__ inline float load_peer_shared(const float* local, std::uint32_t rank) {
  std::uint32_t remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(shared_address(local)), "r"(rank));
  float value;
  asm volatile("ld.shared::cluster.f32 %0, [%1];" : "=f"(value) : "r"(remote) : "memory");
  return value;
}

}  // namespace bankgate::kernels::ptx
