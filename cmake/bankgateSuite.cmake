# bankgate_add_gpu_suite(): a project's GPU suite, gated by bankgate. Shipped with the package
# (find_package(bankgate), FetchContent, add_subdirectory all define it).
#
#   bankgate_add_gpu_suite(NAME SOURCES file... [LIBRARIES target...] [BASELINES dir] [LABELS label...]
#                          [TIMEOUT seconds of the suite's run] [SHARDS n])
#   bankgate_add_line_info(target...)
#
# Builds executable NAME from SOURCES (GoogleTest suites deriving from bankgate::gtest::GateTest; CUDA sources
# may be among them) and registers each of its tests with the project's ctest, labelled "gpu" and the LABELS.
# BASELINES is the folder of committed baselines, by default <the calling project's source folder>/baselines.
# LIBRARIES are linked to the suite; those built by this project (the library holding the kernels under test)
# are given line tables too (bankgate_add_line_info), so that a changed counter names the source line of a kernel.
#
# bankgate_add_line_info(target...) compiles the CUDA sources of a project's own libraries with -lineinfo: line
# tables only, the generated code stays the same. Without them the per-line figures of those kernels name no
# line, and bankgate says so ("kernel X has no line information"). The suite's own SOURCES always get them.
#
# Listing (--gtest_list_tests, run at build time) never touches CUDA: device work starts in the fixture's
# SetUp, and a test that cannot measure reports Skipped with its reason (ctest's Skipped). A suite that links the
# CUDA driver library is listed and run with the toolkit's stub driver where the driver is missing (below).
# SOURCES with .cu files need CUDA enabled in the project (LANGUAGES CXX CUDA); without it the suite is refused.
#
# Each suite's measuring run takes a whole GPU: RESOURCE_GROUPS "gpus:1". Given a resource spec listing the
# machine's GPUs, `ctest --resource-spec-file FILE -j N` runs N suites at once, never two on one GPU, and tells
# each its GPU in CTEST_RESOURCE_GROUP_0_GPUS. Without a spec every suite uses device 0 and bankgate's device
# lock lets one process at a time measure there.
#
# SHARDS n (default 1) splits a large suite over up to n GPUs: n measuring tests, of which k measure, k being
# the number of GPUs of the run (which `bankgate gate --resource-spec` says in its run manifest; under plain
# ctest BANKGATE_GPUS; 1 when neither says).
# Shards beyond k finish at once, so a one-GPU run pays the suite's start-up once, as without SHARDS. In the
# command's runs the k shards share the tests out as they go (bankgate/gate/protocol/test_claims.hpp); under plain ctest
# each takes every k-th test. Each shard pays a suite process's start-up (about 0.5 s on an H200), and
# start-ups on different GPUs of one host do not overlap, so a shard is worth it when it carries several
# seconds of measuring.
#
# Each test's result is a result record in <build>/bankgate/gtest-results/ (its outcome, messages and findings),
# which the test's ctest entry and `bankgate gate` read.
include_guard(GLOBAL)

# The names this function shares with the `bankgate` command and the suites, which
# gate/include/bankgate/gate/protocol/run_protocol.hpp names for them: the folder of the results under the build
# folder (results_root), in it the per-test result records (gtest_results) and the suites' own measurements
# (suite_candidates), and the measuring tests' names (measure_test_prefix). CMake cannot read the header, so
# these are copies; tests/unit/suite_protocol_test.sh runs this macro and fails when they differ from what the
# command says (`bankgate protocol`), and when a name is spelt out anywhere else in this file.
macro(_bankgate_run_protocol)
  set(_bankgate_results_root "bankgate")
  set(_bankgate_gtest_results "gtest-results")
  set(_bankgate_suite_candidates "candidates")
  set(_bankgate_measure_test_prefix "bankgate.measure.")
endmacro()

# A suite that links the CUDA driver library (CUDA::cuda_driver, for cuTensorMapEncodeTiled and other driver-API
# code) cannot start where the driver is missing, as on a CI machine without a GPU: listing its tests after the
# build would fail, and with it the build. The CUDA toolkit ships a stub of the driver (stubs/libcuda.so, whose
# every call fails with CUDA_ERROR_STUB_LIBRARY). This sets `out` to a folder of this build holding it as
# libcuda.so.1, which the command puts first on the suite's library path only where the real driver cannot be
# loaded (cli/driver_stub.hpp): the tests are listed and report Skipped there, and a real driver is never
# shadowed. Empty where the toolkit has no stub.
# The toolkit is looked for where the project's own find_package(CUDAToolkit) put it and, for a project that brings
# bankgate in with add_subdirectory (whose find_package is not seen from the project's folder), beside the CUDA
# compiler.
function(_bankgate_driver_stub_folder out)
  set(beside_nvcc)
  if(CMAKE_CUDA_COMPILER)
    get_filename_component(toolkit "${CMAKE_CUDA_COMPILER}" DIRECTORY)
    get_filename_component(toolkit "${toolkit}" DIRECTORY)
    list(APPEND beside_nvcc "${toolkit}/lib64/stubs" "${toolkit}/lib/stubs"
         "${toolkit}/targets/${CMAKE_SYSTEM_PROCESSOR}-linux/lib/stubs")
  endif()
  find_file(BANKGATE_CUDA_DRIVER_STUB libcuda.so
            PATHS "${CUDAToolkit_LIBRARY_DIR}/stubs" "${CUDAToolkit_TARGET_DIR}/lib/stubs" "${CUDAToolkit_TARGET_DIR}/lib64/stubs"
                  ${beside_nvcc}
            NO_DEFAULT_PATH DOC "The CUDA toolkit's stub driver, which GPU suites start with where the driver is missing")
  if(NOT BANKGATE_CUDA_DRIVER_STUB)
    set(${out} "" PARENT_SCOPE)
    return()
  endif()
  set(folder "${CMAKE_BINARY_DIR}/bankgate-cuda-driver-stub")
  file(MAKE_DIRECTORY "${folder}")
  file(CREATE_LINK "${BANKGATE_CUDA_DRIVER_STUB}" "${folder}/libcuda.so.1" SYMBOLIC)
  set(${out} "${folder}" PARENT_SCOPE)
endfunction()

# -lineinfo for the CUDA sources of each target. An INTERFACE library's sources compile in its users, which
# get it; an imported one was compiled elsewhere and must be built with -lineinfo there.
function(bankgate_add_line_info)
  foreach(target IN LISTS ARGN)
    if(NOT TARGET "${target}")
      message(FATAL_ERROR "bankgate_add_line_info(): '${target}' is no target of this project; name a library "
                          "defined before the call (add_library(${target} ...))")
    endif()
    get_target_property(aliased "${target}" ALIASED_TARGET)
    if(aliased)
      set(target "${aliased}")
    endif()
    get_target_property(imported "${target}" IMPORTED)
    if(imported)
      message(FATAL_ERROR "bankgate_add_line_info(): '${target}' is imported: its kernels were compiled by the "
                          "project that exports it; build that one with -lineinfo (CMAKE_CUDA_FLAGS=-lineinfo)")
    endif()
    get_target_property(type "${target}" TYPE)
    if(type STREQUAL "INTERFACE_LIBRARY")
      target_compile_options("${target}" INTERFACE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
    else()
      target_compile_options("${target}" PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
    endif()
  endforeach()
endfunction()

function(bankgate_add_gpu_suite name)
  _bankgate_run_protocol()
  set(keywords SOURCES LIBRARIES BASELINES LABELS TIMEOUT SHARDS)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "BASELINES;TIMEOUT;SHARDS" "SOURCES;LIBRARIES;LABELS")
  string(REPLACE ";" ", " known "${keywords}")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "bankgate_add_gpu_suite(${name}): unknown arguments ${arg_UNPARSED_ARGUMENTS}; it takes ${known}")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "bankgate_add_gpu_suite(${name}): SOURCES is required")
  endif()
  # A misspelt or unknown keyword after SOURCES reads as a source file ("Cannot find source file: DEPENDS" at
  # generation); a word in capitals that names no file is taken for one.
  foreach(source IN LISTS arg_SOURCES)
    if(source MATCHES "^[A-Z][A-Z_]+$" AND NOT EXISTS "${CMAKE_CURRENT_SOURCE_DIR}/${source}")
      message(FATAL_ERROR "bankgate_add_gpu_suite(${name}): '${source}' is no argument of bankgate_add_gpu_suite and no "
                          "source file; it takes ${known} (link libraries with LIBRARIES, or target_link_libraries(${name} "
                          "PRIVATE ...) after the call)")
    endif()
  endforeach()
  if(NOT DEFINED arg_SHARDS)
    set(arg_SHARDS 1)
  endif()
  if(NOT arg_SHARDS MATCHES "^[1-9][0-9]*$")
    message(FATAL_ERROR "bankgate_add_gpu_suite(${name}): SHARDS '${arg_SHARDS}' is not a positive whole number")
  endif()
  # CMake passes over a .cu file without a word where the project has not enabled CUDA: the suite would be built
  # without its kernels.
  set(cuda_sources ${arg_SOURCES})
  list(FILTER cuda_sources INCLUDE REGEX "\\.cu$")
  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(cuda_sources AND NOT "CUDA" IN_LIST languages)
    message(FATAL_ERROR "bankgate_add_gpu_suite(${name}): SOURCES holds CUDA files (${cuda_sources}), but this project has "
                        "not enabled CUDA, so CMake would leave them out of the suite. Add CUDA to the project's languages "
                        "(project(... LANGUAGES CXX CUDA)) or call enable_language(CUDA) before bankgate_add_gpu_suite().")
  endif()
  if(NOT arg_BASELINES)
    set(arg_BASELINES "${PROJECT_SOURCE_DIR}/baselines")
  endif()
  cmake_path(ABSOLUTE_PATH arg_BASELINES BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" NORMALIZE)
  set(results "${CMAKE_BINARY_DIR}/${_bankgate_results_root}")

  # The suite's view of its project (gtest/include/bankgate/gtest/suite_config.hpp), generated so the paths
  # and the command are those of this build.
  set(config_source "${CMAKE_CURRENT_BINARY_DIR}/${name}_bankgate_suite_config.cpp")
  file(GENERATE OUTPUT "${config_source}" CONTENT
"// Generated by bankgate_add_gpu_suite(${name}); do not edit.
#include <bankgate/gtest/suite_config.hpp>

bankgate::gtest::SuiteConfig bankgate::gtest::suite_config() {
  return {R\"bankgate(${arg_BASELINES})bankgate\", R\"bankgate(${results}/${_bankgate_suite_candidates})bankgate\",
          R\"bankgate(${CMAKE_BINARY_DIR})bankgate\", R\"bankgate($<TARGET_FILE:bankgate::bankgate>)bankgate\",
          R\"bankgate(${PROJECT_SOURCE_DIR})bankgate\"};
}
")

  add_executable(${name} ${arg_SOURCES} "${config_source}")
  target_link_libraries(${name} PRIVATE bankgate::gtest_main ${arg_LIBRARIES})
  foreach(library IN LISTS arg_LIBRARIES)
    if(TARGET "${library}")
      get_target_property(aliased "${library}" ALIASED_TARGET)
      if(NOT aliased)
        set(aliased "${library}")
      endif()
      get_target_property(imported "${aliased}" IMPORTED)
      if(NOT imported)
        bankgate_add_line_info("${library}")
      endif()
    endif()
  endforeach()
  # Line tables for the suite's own CUDA sources, so a changed counter can name its source line. -lineinfo
  # adds debug sections only; the generated code, and so every counter, stays the same.
  target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
  # One CUDA runtime in the process: the collector uses the shared one, so CUDA sources here do too.
  set_target_properties(${name} PROPERTIES CUDA_RUNTIME_LIBRARY Shared)

  # One process per suite: CUPTI's set-up, the first profiled kernel and a CUDA context are paid once per suite,
  # not per test. The measuring test runs the suite (bankgate run-suite) on one GPU and leaves a result file
  # per test; each GoogleTest test is a ctest entry of its own that reports its file (bankgate verdict) and
  # requires the measuring test as a fixture, so ctest -R of one test measures it too (the command passes its
  # filter on in its run manifest). A test that crashes the suite process is charged with it and the rest
  # continue in a fresh process, and so does one that hangs (run-suite kills it after 300 s). TIMEOUT bounds the
  # whole measuring run: on an H200 a test takes well under a second in it; the device lock's own wait
  # (BANKGATE_LOCK_TIMEOUT, 240 s) ends first and names the holder. run-suite is told the TIMEOUT and stops a
  # little before it, writing the record of each test it could not finish.
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 600)
  endif()
  set(fixture "bankgate.${name}")
  _bankgate_driver_stub_folder(driver_stub)
  set(stub_args)
  if(driver_stub)
    set(stub_args --driver-stub "${driver_stub}")
  endif()
  set(labels gpu ${arg_LABELS})
  math(EXPR last_shard "${arg_SHARDS} - 1")
  foreach(shard RANGE ${last_shard})
    set(measure "${_bankgate_measure_test_prefix}${name}")
    if(arg_SHARDS GREATER 1)
      string(APPEND measure ".${shard}")
    endif()
    add_test(NAME "${measure}"
             COMMAND "$<TARGET_FILE:bankgate::bankgate>" run-suite --binary "$<TARGET_FILE:${name}>"
                     --results "${results}/${_bankgate_gtest_results}" --shards ${arg_SHARDS} --shard ${shard}
                     --timeout ${arg_TIMEOUT} ${stub_args})
    set_tests_properties("${measure}" PROPERTIES RESOURCE_GROUPS "gpus:1" FIXTURES_SETUP "${fixture}"
                         LABELS "${labels}" TIMEOUT ${arg_TIMEOUT})
  endforeach()

  # The per-test entries, listed after each build (listing never touches CUDA) into a file ctest includes.
  set(tests_file "${CMAKE_CURRENT_BINARY_DIR}/${name}_bankgate_tests.cmake")
  set(label_args)
  foreach(label IN LISTS labels)
    list(APPEND label_args --labels "${label}")
  endforeach()
  # The kernel names its sources give their cases are checked against its own device code first (no GPU): a
  # misspelt one fails the build instead of being skipped everywhere but on the GPU runner.
  set(named_sources)
  foreach(source IN LISTS arg_SOURCES)
    get_filename_component(source "${source}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND named_sources --sources "${source}")
  endforeach()
  add_custom_command(TARGET ${name} POST_BUILD
    COMMAND "$<TARGET_FILE:bankgate::bankgate>" discover --binary "$<TARGET_FILE:${name}>"
            --results "${results}/${_bankgate_gtest_results}" --out "${tests_file}" --fixture "${fixture}" ${label_args}
            --candidates "${results}/${_bankgate_suite_candidates}" --baselines "${arg_BASELINES}"
            ${stub_args} ${named_sources}
    COMMENT "bankgate: listing the tests of ${name}" VERBATIM)
  get_target_property(command_imported bankgate::bankgate IMPORTED)
  if(NOT command_imported)
    get_target_property(command_target bankgate::bankgate ALIASED_TARGET)
    add_dependencies(${name} ${command_target})
  endif()
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${name}_bankgate_include.cmake")
  file(WRITE "${include_file}"
       "if(EXISTS \"${tests_file}\")\n  include(\"${tests_file}\")\nelse()\n  add_test(${name}_NOT_BUILT ${name}_NOT_BUILT)\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
  # ctest finds tests only where testing is enabled in this folder and every folder above it up to the top of
  # the build. enable_testing() sets a variable of the scope it runs in, so it is deferred to each folder's own
  # scope (all of them are still being processed while this one is).
  set(folder "${CMAKE_CURRENT_SOURCE_DIR}")
  while(folder)
    cmake_language(DEFER DIRECTORY "${folder}" CALL enable_testing)
    get_directory_property(folder DIRECTORY "${folder}" PARENT_DIRECTORY)
  endwhile()
endfunction()
