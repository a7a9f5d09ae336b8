#include "transpose.cuh"

// Each block moves one 32x32 tile: coalesced row reads into shared memory, then column reads out of it. The
// extra column of padding puts the 32 elements of a tile column in 32 different banks, so the column reads
// cost one wavefront per request instead of 32.
__global__ void transposePadded(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[transpose_tile][transpose_tile + 1];
  const int x = blockIdx.x * transpose_tile + threadIdx.x;
  const int y = blockIdx.y * transpose_tile + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  const int tx = blockIdx.y * transpose_tile + threadIdx.x;
  const int ty = blockIdx.x * transpose_tile + threadIdx.y;
  out[ty * rows + tx] = tile[threadIdx.x][threadIdx.y];
}

cudaError_t launch_transpose(const float* in, float* out, int rows, int cols) {
  const dim3 block(transpose_tile, transpose_tile);
  const dim3 grid(cols / transpose_tile, rows / transpose_tile);
  transposePadded<<<grid, block>>>(in, out, rows, cols);
  return cudaGetLastError();
}
