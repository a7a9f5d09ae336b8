# One place for warning flags, applied per target so that system headers (GoogleTest, CUPTI) stay quiet.
# CUPTI parameter structs are zero-filled by aggregate initialization with only structSize named, hence
# -Wno-missing-field-initializers.
function(bankgate_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Wno-missing-field-initializers>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
endfunction()
