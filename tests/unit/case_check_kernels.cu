// Device code for tests/unit/case_check_test.cpp: kernels the test program holds, so that a case naming them is
// checked against the program's own device code (a plain kernel, a template instance, one in a namespace).
__global__ void caseCheckScale(float* data, float factor) { data[threadIdx.x] *= factor; }

template <int Tile>
__global__ void caseCheckTile(float* data) {
  data[threadIdx.x * Tile] = 0.0f;
}
template __global__ void caseCheckTile<16>(float*);

namespace case_check {
__global__ void reduceBlocks(const float* in, float* out) { out[blockIdx.x] = in[blockIdx.x * blockDim.x]; }
}  // namespace case_check
