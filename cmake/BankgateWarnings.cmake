# One place for warning flags, applied per target so that system headers (GoogleTest, CUPTI) stay quiet.
# CUPTI parameter structs are zero-filled by aggregate initialization with only structSize named, hence
# -Wno-missing-field-initializers.
# Only where bankgate is the project being built: a project that brings it in (FetchContent, add_subdirectory)
# builds bankgate's sources under its own flags, and bankgate's warnings are not its build log's business.
function(bankgate_set_warnings target)
  if(NOT bankgate_IS_TOP_LEVEL)
    return()
  endif()
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Wno-missing-field-initializers>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
  # GCC 12 takes std::string concatenations for overlapping copies inside the library's own code, which they are
  # not (GCC bug 105329): its -Wrestrict, part of -Wall, is off for that compiler alone.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
     AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict> $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wno-restrict>)
  endif()
endfunction()
