# Finds what every target needs: the CUDA toolkit (CUPTI, NVTX), nlohmann-json and GoogleTest.
# Each missing piece stops the configure with the package or setting that supplies it.
find_package(CUDAToolkit REQUIRED)
if(NOT TARGET CUDA::cupti)
  message(FATAL_ERROR "CUPTI was not found in the CUDA toolkit at ${CUDAToolkit_LIBRARY_ROOT}. "
                      "Install the toolkit's CUPTI component (cuda-cupti-dev-13-0) or point CUDAToolkit_ROOT at a full toolkit.")
endif()

# nlohmann-json: the Debian package here; a header folder carried to machines that cannot install it.
find_package(nlohmann_json 3.10 QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  find_path(BANKGATE_NLOHMANN_INCLUDE_DIR nlohmann/json.hpp
            HINTS "${CMAKE_CURRENT_SOURCE_DIR}/.deps/include" ENV BANKGATE_NLOHMANN_INCLUDE_DIR)
  if(NOT BANKGATE_NLOHMANN_INCLUDE_DIR)
    message(FATAL_ERROR "nlohmann-json was not found. Install it (apt-get install nlohmann-json3-dev) "
                        "or set BANKGATE_NLOHMANN_INCLUDE_DIR to a folder holding nlohmann/json.hpp.")
  endif()
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE "${BANKGATE_NLOHMANN_INCLUDE_DIR}")
endif()

if(BANKGATE_BUILD_TESTS)
  # GoogleTest: the installed package, or its sources where only those ship (/usr/src/googletest).
  find_package(GTest QUIET)
  if(NOT TARGET GTest::gtest)
    find_path(BANKGATE_GTEST_SOURCE_DIR CMakeLists.txt PATHS /usr/src/googletest NO_DEFAULT_PATH)
    if(NOT BANKGATE_GTEST_SOURCE_DIR)
      message(FATAL_ERROR "GoogleTest was not found. Install it (apt-get install libgtest-dev) "
                          "or configure with -DBANKGATE_BUILD_TESTS=OFF.")
    endif()
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
    add_subdirectory("${BANKGATE_GTEST_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/_googletest" EXCLUDE_FROM_ALL)
    add_library(GTest::gtest ALIAS gtest)
    add_library(GTest::gtest_main ALIAS gtest_main)
  endif()
endif()
