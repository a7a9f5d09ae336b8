#include "names.hpp"

#include <cxxabi.h>

#include <cstdlib>

namespace bankgate::detail {

std::string demangle(const char* mangled) {
  if (mangled == nullptr) return "<unnamed kernel>";
  int status = 0;
  char* text = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string result = status == 0 && text != nullptr ? text : mangled;
  std::free(text);
  return result;
}

}  // namespace bankgate::detail
