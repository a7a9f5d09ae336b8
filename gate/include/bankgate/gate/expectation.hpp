#pragma once
// The expectation type lives in bankgate::core (<bankgate/expectation.hpp>); this name for it stays, so that
// GateTest's KernelCase and code written against bankgate::gate::SharedAccessExpectation keep working.

#include <bankgate/expectation.hpp>

namespace bankgate::gate {
using bankgate::SharedAccessExpectation;
}  // namespace bankgate::gate
