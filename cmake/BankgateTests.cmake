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
# RUN_SERIAL: two suites on one GPU would disturb each other's timings and CUPTI allows one profiling
# session per device.
function(bankgate_add_gpu_suite target)
  add_executable(${target} ${ARGN})
  target_link_libraries(${target} PRIVATE bankgate::gtest GTest::gtest_main)
  bankgate_set_warnings(${target})
  gtest_discover_tests(${target}
    PROPERTIES LABELS gpu RUN_SERIAL TRUE)
endfunction()
