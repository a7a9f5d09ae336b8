# CUDA sources that include bankgate's headers need C++20 (std::span). The C++20 that bankgate's targets ask for
# (cxx_std_20) reaches a target's CUDA sources as the CUDA20 dialect, and so does CUDA_STANDARD 20; CMake before
# 3.26 knows no flag for CUDA20 with nvcc, and drops it (or refuses it where the standard is required), so nvcc
# compiled them as C++17. This gives such a CMake the flag that CMake 3.26 uses for nvcc 12 and newer. Included
# (not a function: it sets variables of the scope it runs in) where targets may link bankgate: the package's
# bankgateConfig.cmake, and bankgate's own CMakeLists.txt, which passes it on to a project that adds bankgate
# as a subproject. A newer CMake, or a flag the project already set, is left as it is.
if(CMAKE_VERSION VERSION_LESS 3.26 AND NOT DEFINED CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()
