#pragma once
// The fixture's old header name, kept for existing users (the examples and outside projects include it); new code
// includes <bankgate/gtest/gate_fixture.hpp>.
#include <bankgate/gtest/gate_fixture.hpp>
