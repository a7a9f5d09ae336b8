#pragma once
// The catalogue's kernels state their expected memory cost with bankgate's own type, as any project's kernels
// can; it is bankgate::core's, so the kernels link no more of bankgate than that.

#include <string_view>

#include <bankgate/expectation.hpp>

namespace bankgate::kernels {
using bankgate::AccessExpectation;
using bankgate::ExpectedRatio;
using bankgate::shared_access_expectation;

// The ratio keys of the metric table, spelt once in bankgate::core (ratio_keys.hpp).
namespace key = bankgate::ratio;

}  // namespace bankgate::kernels
