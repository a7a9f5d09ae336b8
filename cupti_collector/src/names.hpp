#pragma once
// Kernel names as CUPTI reports them (mangled), demangled; kernel_base_name (results.hpp) then gives the names
// results use.

#include <string>

namespace bankgate::detail {

std::string demangle(const char* mangled);  // the mangled text itself where it does not demangle

}  // namespace bankgate::detail
