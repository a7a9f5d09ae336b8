include(GoogleTest)

# GPU-free tests: label "unit".
function(bankgate_add_unit_test target)
  add_executable(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE bankgate::harness GTest::gtest GTest::gtest_main)
  bankgate_set_warnings(${target})
  gtest_discover_tests(${target} PROPERTIES LABELS unit)
endfunction()

# GPU suites: label "gpu". Listing (--gtest_list_tests, run at build time) never touches CUDA: all device
# work starts in the fixture's SetUp. gtest_discover_tests itself reports "[  SKIPPED ]" as ctest's Skipped.
#
# Each test takes a whole GPU: RESOURCE_GROUPS "gpus:1". Given a resource spec listing the machine's GPUs
# (ci/write-resource-spec.sh), `ctest --resource-spec-file FILE -j N` runs N GPU tests at once, never two on
# one GPU, and tells each its GPU in CTEST_RESOURCE_GROUP_0_GPUS (read in tests/harness/src/settings.cpp).
# Two tests on one GPU would disturb each other's timings, and CUPTI allows one profiling session per device.
# Without a spec ctest ignores resource groups and every GPU test uses device 0; the device lock
# (tests/harness/src/device_lock.cpp) then lets one process at a time measure there, so plain `ctest -j`
# stays correct, only not parallel on the GPU. (Not RUN_SERIAL: that would forbid the N-at-once above.)
#
# XML_OUTPUT_DIR: each test also writes GoogleTest's own report, with the failure messages and the device it
# ran on, as gtest-results/<Suite.test>.xml in the build folder; ci/gate.sh summarises from those files.
function(bankgate_add_gpu_suite target)
  add_executable(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE bankgate::gtest GTest::gtest_main)
  bankgate_set_warnings(${target})
  gtest_discover_tests(${target}
    XML_OUTPUT_DIR ${PROJECT_BINARY_DIR}/gtest-results
    PROPERTIES LABELS gpu RESOURCE_GROUPS "gpus:1")
endfunction()
