// Seed 002's bank rules: stride-k reads of 32-bit words, a broadcast read, and 64-bit (double) and 128-bit
// (float4) elements along rows and down columns of a 32x32 tile, unpadded and padded.

#include <vector>

#include <bankgate/gtest/gate_fixture.hpp>
#include <bankgate/gtest/output_check.hpp>
#include <bankgate/kernels/device_buffer.hpp>
#include <bankgate/kernels/stride_width.cuh>

namespace {

namespace k = bankgate::kernels;
using bankgate::gtest::equal_elements;
using bankgate::gtest::GateTest;
using bankgate::gtest::KernelCase;

// float4 has no operator== or <<: compare its components.
std::vector<float> components(const std::vector<float4>& v) {
  std::vector<float> flat;
  flat.reserve(4 * v.size());
  for (const float4& e : v) flat.insert(flat.end(), {e.x, e.y, e.z, e.w});
  return flat;
}

class StrideWidth : public GateTest {
 protected:
  void gate_word(k::WordAccess kernel) {
    std::vector<int> input(k::word_access_input_words);
    for (int i = 0; i < k::word_access_input_words; ++i) input[i] = 5 * i + 2;
    const k::DeviceBuffer<int> in(input);
    k::DeviceBuffer<int> out(k::word_access_output_words);
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = [&] { k::launch_word_access(kernel, in.get(), out.get()); },
        .poison_output = [&] { out.poison(); },
        .check_output = [&] { return equal_elements(out.to_host(), k::word_access_reference(kernel, input)); },
        .expected = k::expected_access(kernel),
    });
  }

  void gate_double(k::WideAccess kernel) {
    std::vector<double> input(k::wide_access_elements);
    for (int i = 0; i < k::wide_access_elements; ++i) input[i] = i + 0.5;
    const k::DeviceBuffer<double> in(input);
    k::DeviceBuffer<double> out(input.size());
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = [&] { k::launch_wide_access(kernel, in.get(), out.get()); },
        .poison_output = [&] { out.poison(); },
        .check_output = [&] { return equal_elements(out.to_host(), k::wide_access_reference(input)); },
        .expected = k::expected_access(kernel),
    });
  }

  void gate_float4(k::WideAccess kernel) {
    std::vector<float4> input(k::wide_access_elements);
    for (int i = 0; i < k::wide_access_elements; ++i) {
      const float base = static_cast<float>(4 * i);
      input[i] = float4{base, base + 1.0f, base + 2.0f, base + 3.0f};
    }
    const k::DeviceBuffer<float4> in(input);
    k::DeviceBuffer<float4> out(input.size());
    gate(KernelCase{
        .kernel_name = std::string(k::kernel_name(kernel)),
        .launch = [&] { k::launch_wide_access(kernel, in.get(), out.get()); },
        .poison_output = [&] { out.poison(); },
        .check_output =
            [&] { return equal_elements(components(out.to_host()), components(k::wide_access_reference(input))); },
        .expected = k::expected_access(kernel),
    });
  }
};

TEST_F(StrideWidth, Stride1) { gate_word(k::WordAccess::stride_1); }
TEST_F(StrideWidth, Stride2) { gate_word(k::WordAccess::stride_2); }
TEST_F(StrideWidth, Stride3) { gate_word(k::WordAccess::stride_3); }
TEST_F(StrideWidth, Stride4) { gate_word(k::WordAccess::stride_4); }
TEST_F(StrideWidth, Stride8) { gate_word(k::WordAccess::stride_8); }
TEST_F(StrideWidth, Stride16) { gate_word(k::WordAccess::stride_16); }
TEST_F(StrideWidth, Stride32) { gate_word(k::WordAccess::stride_32); }
TEST_F(StrideWidth, Stride33) { gate_word(k::WordAccess::stride_33); }
TEST_F(StrideWidth, Broadcast) { gate_word(k::WordAccess::broadcast); }
TEST_F(StrideWidth, RowDouble) { gate_double(k::WideAccess::row_double); }
TEST_F(StrideWidth, ColDouble) { gate_double(k::WideAccess::col_double); }
TEST_F(StrideWidth, ColPadDouble) { gate_double(k::WideAccess::col_pad_double); }
TEST_F(StrideWidth, RowFloat4) { gate_float4(k::WideAccess::row_float4); }
TEST_F(StrideWidth, ColFloat4) { gate_float4(k::WideAccess::col_float4); }
TEST_F(StrideWidth, ColPadFloat4) { gate_float4(k::WideAccess::col_pad_float4); }

}  // namespace
