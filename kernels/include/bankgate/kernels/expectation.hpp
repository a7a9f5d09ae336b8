#pragma once
// The catalogue's kernels state their expected shared-memory cost with bankgate's own type, as any project's
// kernels can; it is bankgate::core's, so the kernels link no more of bankgate than that.

#include <bankgate/expectation.hpp>

namespace bankgate::kernels {
using bankgate::SharedAccessExpectation;
}  // namespace bankgate::kernels
