#pragma once
// The names of the metric table's ratios (RatioTraits::key, metrics.hpp), spelt once: kernels state their
// expectations with them (expectation.hpp), so that a typo is a compile error rather than a ratio the gate
// does not know. Plain string_views, so that CUDA sources include them cheaply.

#include <string_view>

namespace bankgate::ratio {
inline constexpr std::string_view shared_load = "shared_load_transactions_per_request";
inline constexpr std::string_view shared_store = "shared_store_transactions_per_request";
inline constexpr std::string_view shared_atomic = "shared_atomic_transactions_per_request";
inline constexpr std::string_view cp_async_transactions =
    "cp_async_transactions_per_request";                                              // LDGSTS shared wavefronts
inline constexpr std::string_view cp_async_sectors = "cp_async_sectors_per_request";  // LDGSTS global sectors
inline constexpr std::string_view ldmatrix_transactions = "ldmatrix_transactions_per_request";
inline constexpr std::string_view stmatrix_transactions = "stmatrix_transactions_per_request";
inline constexpr std::string_view global_load_sectors = "global_load_sectors_per_request";
inline constexpr std::string_view global_store_sectors = "global_store_sectors_per_request";
inline constexpr std::string_view global_atomic_sectors = "global_atomic_sectors_per_request";
inline constexpr std::string_view global_reduction_sectors = "global_reduction_sectors_per_request";
inline constexpr std::string_view local_load_sectors = "local_load_sectors_per_request";
inline constexpr std::string_view local_store_sectors = "local_store_sectors_per_request";
inline constexpr std::string_view threads_per_instruction = "threads_per_instruction";
inline constexpr std::string_view tma_load_bytes = "tma_load_bytes_per_instruction";          // global -> shared
inline constexpr std::string_view tma_store_bytes = "tma_store_bytes_per_instruction";        // shared -> global
inline constexpr std::string_view wgmma_shared_bytes = "wgmma_shared_bytes_per_instruction";  // operands read
}  // namespace bankgate::ratio
