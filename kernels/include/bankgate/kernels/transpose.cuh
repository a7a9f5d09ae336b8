#pragma once
// Matrix transpose, out = in^T for a rows x cols float matrix (row-major; out is cols x rows): naive (global
// memory only), through a 32x32 shared tile, through a tile padded by one column, and through a tile whose
// columns are XOR-swizzled by the row. The tiled kernels use 32x8 thread blocks that loop over the tile in
// four steps of 8 rows, each thread moving four elements.

#include <cuda_runtime_api.h>

#include <array>
#include <string_view>
#include <vector>

#include <bankgate/kernels/expectation.hpp>

namespace bankgate::kernels {

inline constexpr int transpose_tile = 32;       // tile side; blockDim.x
inline constexpr int transpose_block_rows = 8;  // blockDim.y: rows a block moves per step

struct TransposeShape {
  int rows;
  int cols;
};

inline constexpr TransposeShape transpose_square_shape{2048, 2048};
inline constexpr TransposeShape transpose_hd_shape{1080, 1920};  // 1080 = 33 tiles + 24 rows: a partial tile row

enum class Transpose {
  naive,
  tiled,
  padded,
  swizzled,
};

inline constexpr std::array<Transpose, 4> all_transpose_kernels{Transpose::naive, Transpose::tiled, Transpose::padded,
                                                                 Transpose::swizzled};

// "transposeNaive", "transposeTiled", "transposePadded", "transposeSwizzled"
std::string_view kernel_name(Transpose kernel);
// The global figures of the tiled kernels depend on the shape (a partial tile row leaves the last tile's stores
// narrower): the catalogue's two shapes are derived in transpose.cu; for any other shape only the
// shape-independent ratios are stated.
AccessExpectation expected_access(Transpose kernel, TransposeShape shape);

// out (shape.cols x shape.rows) = in (shape.rows x shape.cols) transposed.
void launch_transpose(Transpose kernel, const float* in, float* out, TransposeShape shape,
                      cudaStream_t stream = nullptr);

std::vector<float> transpose_reference(const std::vector<float>& in, TransposeShape shape);

}  // namespace bankgate::kernels
