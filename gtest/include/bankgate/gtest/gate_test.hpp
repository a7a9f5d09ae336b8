#pragma once
// The fixture's old header name, kept for projects written against it; it warns, so that they move to
// <bankgate/gtest/gate_fixture.hpp>.
#pragma GCC warning \
    "<bankgate/gtest/gate_test.hpp> is the fixture's old header: include <bankgate/gtest/gate_fixture.hpp>"
#include <bankgate/gtest/gate_fixture.hpp>
