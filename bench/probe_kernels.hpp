#pragma once
// The catalogue kernels the collector probes launch by name, with their buffers: a CUDA-core kernel, a case of two
// kernels, and Hopper's TMA and wgmma kernels.

#include <functional>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/tiled_matmul.cuh>
#include <bankgate/kernels/tma_tile.cuh>
#include <bankgate/kernels/transpose.cuh>
#include <bankgate/kernels/wgmma_gemm.cuh>

namespace bankgate::probes {

namespace k = bankgate::kernels;

struct ProbeBuffers {
  k::DeviceBuffer<float> matmul_a{std::vector<float>(512 * 512, 1.0f)}, matmul_b{std::vector<float>(512 * 512, 1.0f)},
      matmul_c{512 * 512};
  k::DeviceBuffer<float> square{std::vector<float>(2048 * 2048, 1.0f)}, transposed{2048 * 2048}, back{2048 * 2048};
  k::DeviceBuffer<float> bulk_in{std::vector<float>(k::tma_bulk_floats, 1.0f)}, bulk_out{k::tma_bulk_floats};
  k::DeviceBuffer<std::uint32_t> tile_in{std::vector<std::uint32_t>(k::tma_tile_total_words, 1u)},
      tile_out{k::tma_tile_total_words};
  k::DeviceBuffer<unsigned short> gemm_a{k::gemm_input(k::gemm_m, k::gemm_k, 1)},
      gemm_b{k::gemm_input(k::gemm_n, k::gemm_k, 2)};
  k::DeviceBuffer<float> gemm_c{static_cast<std::size_t>(k::gemm_m) * k::gemm_n};
};

// matmul (tiledMatmul<16>), transpose2 (two transposes), tma (a TMA bulk copy), ldsm (a TMA tensor box read by
// ldmatrix, swizzled), wgmma (the warp-specialised TMA + wgmma GEMM).
inline std::map<std::string, std::function<void()>> probe_launches(ProbeBuffers& b) {
  return {
      {"matmul",
       [&b] {
         k::launch_tiled_matmul(k::TiledMatmul::tile16, b.matmul_a.get(), b.matmul_b.get(), b.matmul_c.get(),
                                k::matmul_square_shape);
       }},
      {"transpose2",
       [&b] {
         k::launch_transpose(k::Transpose::padded, b.square.get(), b.transposed.get(), k::transpose_square_shape);
         k::launch_transpose(k::Transpose::swizzled, b.transposed.get(), b.back.get(), k::transpose_square_shape);
       }},
      {"tma", [&b] { k::launch_tma_tile(k::TmaTile::bulk_copy, b.bulk_in.get(), b.bulk_out.get()); }},
      {"ldsm", [&b] { k::launch_tma_tile(k::TmaTile::ldmatrix_swizzled, b.tile_in.get(), b.tile_out.get()); }},
      {"wgmma",
       [&b] { k::launch_wgmma_gemm(k::WgmmaGemm::warp_specialized, b.gemm_a.get(), b.gemm_b.get(), b.gemm_c.get()); }},
  };
}

}  // namespace bankgate::probes
