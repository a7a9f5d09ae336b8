#include <bankgate/kernels/ldmatrix_tile.cuh>

#include <bankgate/kernels/device_buffer.hpp>

// File-local kernels at global scope so that their demangled names are bare (see rect_tile.cu).
//
// Block b handles input words [1024b, 1024b+1024): a tile of 32 rows of 128 bytes, each row 8 chunks of 16
// bytes (4 words, 8 16-bit elements). Bank rule (seed 002): 32 banks of 4 bytes, byte a in bank (a/4)%32, so a
// 16-byte chunk covers 4 banks and a 128-byte row all 32.
//
// Staging: in 2 rounds k, thread t loads chunk q = 128k+t of the tile (row q/8, chunk q%8) as one 16-byte
// LDG.128 and stores it with one STS.128 at row*128 + 16*column(row, chunk).
//
// Reading: ldmatrix.sync.aligned.m8n8.x4.shared.b16 loads four 8x8 matrices of 16-bit elements, i.e. four
// blocks of 8 rows x 16 bytes; lanes 8p..8p+7 give the row addresses of matrix p, and afterwards lane l holds,
// in register p, the 32-bit word l%4 of row l/4 of matrix p. Warp w issues two: instruction j reads chunk
// column c = 2w+j of row groups 0..3 (matrix p = rows 8p..8p+7), so the 4 warps x 2 instructions read the 32
// matrices (8 chunk columns x 4 row groups) of the tile once each. Matrix number (within the tile) mi = 4c+p.
// Lane l then stores register p to out[1024b + 32mi + l]: the fragments in order, the word that input row
// 8p + l/4, word 4c + l%4 held (ldmatrix_tile_reference).
//
// ldmatrix is processed one 8-row matrix (8 addresses of 16 bytes = 128 bytes) per wavefront when the 8 rows
// fall in 8 different groups of 4 banks, and one more wavefront for each further row that shares a bank:
//  - plain (row r at byte 128r, chunk c at 16c): the 8 rows of a matrix are 128 bytes apart, all in banks
//    4c..4c+3, 8 different addresses: 8 wavefronts per matrix, 32 per x4 instruction;
//  - swizzled (chunk c of row r at 16*(c ^ (r%8))): the 8 rows r = 8p..8p+7 have r%8 = 0..7, so c ^ (r%8)
//    takes 8 different chunk positions, 32 different banks: 1 wavefront per matrix, 4 per x4 instruction.
// The staging STS.128 is served a quarter-warp (8 lanes, 128 bytes) at a time: lanes 8i..8i+7 store the 8
// chunks of one row, in order or XOR-permuted within the row, 32 banks either way: 4 wavefronts per request,
// the 512-byte minimum, for both layouts. The kernel has no LDS: ldmatrix counts as its own instruction class
// (smsp__sass_inst_executed_op_ldsm), as LDGSTS does (async_copy.cu), so the shared load figure is 0.
//
// Global: the LDG.128 of a warp covers 32 consecutive chunks (512 bytes from a 512-byte boundary): 16 sectors
// per request; each STG covers out[1024b + 32mi .. +31], 128 bytes from a 128-byte boundary: 4 sectors.
// Every figure here was checked with Nsight Compute (docs/measurement.md, "Measurements behind the code").

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 750
#error "ldmatrix needs sm_75 or newer"
#endif

namespace {

constexpr int threads = bankgate::kernels::ldmatrix_threads;
constexpr int tile_rows = bankgate::kernels::ldmatrix_tile_rows;
constexpr int chunks_per_row = 8;  // 16-byte chunks in a 128-byte row
constexpr int tile_chunks = tile_rows * chunks_per_row;  // 256
constexpr int tile_words = bankgate::kernels::ldmatrix_tile_words;
static_assert(tile_chunks * 4 == tile_words);
static_assert(tile_chunks == 2 * threads, "two staging rounds");
static_assert(threads / 32 * 2 == chunks_per_row, "each warp reads two chunk columns");

// Where the chunk `chunk` of row `row` lives in the row (in 16-byte units).
struct Plain {
  __device__ static int column(int, int chunk) { return chunk; }
};
struct Swizzled {
  __device__ static int column(int row, int chunk) { return chunk ^ (row % 8); }
};

__device__ void ldmatrix_x4(const uint4* row_address, unsigned& d0, unsigned& d1, unsigned& d2, unsigned& d3) {
  const auto address = static_cast<unsigned>(__cvta_generic_to_shared(row_address));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
               : "=r"(d0), "=r"(d1), "=r"(d2), "=r"(d3)
               : "r"(address)
               : "memory");
}

template <typename Layout>
__device__ void ldmatrix_through_tile(const uint4* in, unsigned* out) {
  __shared__ uint4 tile[tile_rows][chunks_per_row];
  const int t = static_cast<int>(threadIdx.x);
  const uint4* block_in = in + static_cast<size_t>(blockIdx.x) * tile_chunks;
  for (int k = 0; k < 2; ++k) {
    const int q = k * threads + t;
    const int row = q / chunks_per_row;
    tile[row][Layout::column(row, q % chunks_per_row)] = block_in[q];
  }
  __syncthreads();
  const int warp = t / 32;
  const int lane = t % 32;
  unsigned* block_out = out + static_cast<size_t>(blockIdx.x) * tile_words;
  for (int j = 0; j < 2; ++j) {
    const int c = 2 * warp + j;  // chunk column
    const int row = lane;        // lanes 8p..8p+7 address rows 8p..8p+7, the rows of matrix p
    unsigned d[4];
    ldmatrix_x4(&tile[row][Layout::column(row, c)], d[0], d[1], d[2], d[3]);
    for (int p = 0; p < 4; ++p) block_out[(4 * c + p) * 32 + lane] = d[p];
  }
}

}  // namespace

// Rows 128 bytes apart, no swizzle: 32 ldmatrix wavefronts per x4 instruction (8-way per matrix).
static __global__ void ldmatrixTile(const uint4* in, unsigned* out) { ldmatrix_through_tile<Plain>(in, out); }

// Chunks XOR-swizzled by row % 8: 4 ldmatrix wavefronts per x4 instruction, one per matrix.
static __global__ void ldmatrixTileSwizzled(const uint4* in, unsigned* out) {
  ldmatrix_through_tile<Swizzled>(in, out);
}

namespace bankgate::kernels {

std::string_view kernel_name(LdmatrixTile kernel) {
  switch (kernel) {
    case LdmatrixTile::plain: return "ldmatrixTile";
    case LdmatrixTile::swizzled: return "ldmatrixTileSwizzled";
  }
  return "unknown";
}

AccessExpectation expected_access(LdmatrixTile kernel) {
  const auto with = [](double ldmatrix) {
    return std::vector<ExpectedRatio>{{key::ldmatrix_transactions, ldmatrix},
                                      {key::global_load_sectors, 16},
                                      {key::global_store_sectors, 4}};
  };
  switch (kernel) {
    case LdmatrixTile::plain:
      return shared_access_expectation(0, 4, "each matrix's 8 rows are 128 bytes apart, all in the same 4 banks: 8 "
                                             "wavefronts per matrix, 32 per ldmatrix.x4; STS.128 of whole rows: 4; no "
                                             "LDS; global 16-byte chunks 16 sectors, fragment stores 4",
                                       with(32));
    case LdmatrixTile::swizzled:
      return shared_access_expectation(0, 4, "chunk c of row r at c^(r%8): a matrix's 8 rows take 8 different chunk "
                                             "positions, 32 banks: 1 wavefront per matrix, 4 per ldmatrix.x4; STS.128 "
                                             "4; no LDS; global 16 and 4 sectors",
                                       with(4));
  }
  return {};
}

void launch_ldmatrix_tile(LdmatrixTile kernel, const std::uint32_t* in, std::uint32_t* out, cudaStream_t stream) {
  const auto* chunks = reinterpret_cast<const uint4*>(in);  // cudaMalloc'd: 256-byte aligned
  switch (kernel) {
    case LdmatrixTile::plain: ldmatrixTile<<<ldmatrix_blocks, threads, 0, stream>>>(chunks, out); break;
    case LdmatrixTile::swizzled: ldmatrixTileSwizzled<<<ldmatrix_blocks, threads, 0, stream>>>(chunks, out); break;
  }
  check_cuda(cudaGetLastError(), "kernel launch");
}

std::vector<std::uint32_t> ldmatrix_tile_reference(const std::vector<std::uint32_t>& in) {
  std::vector<std::uint32_t> out(in.size());
  for (std::size_t b = 0; b < in.size() / tile_words; ++b)
    for (int mi = 0; mi < 32; ++mi)  // matrix 4c + p: chunk column c, rows 8p..8p+7
      for (int lane = 0; lane < 32; ++lane) {
        const int c = mi / 4;
        const int p = mi % 4;
        const int row = 8 * p + lane / 4;
        const int word = 4 * c + lane % 4;
        out[b * tile_words + static_cast<std::size_t>(32 * mi + lane)] =
            in[b * tile_words + static_cast<std::size_t>(row * bankgate::kernels::ldmatrix_row_words + word)];
      }
  return out;
}

}  // namespace bankgate::kernels
