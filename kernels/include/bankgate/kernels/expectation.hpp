#pragma once
// The catalogue's kernels state their expected shared-memory cost with bankgate's own type, as any project's
// kernels can.

#include <bankgate/gate/expectation.hpp>

namespace bankgate::kernels {
using gate::SharedAccessExpectation;
}  // namespace bankgate::kernels
