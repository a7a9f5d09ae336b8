# The installed package: headers, the libraries (core, collector, gate, gtest, gtest_main), the `bankgate`
# command, its resource spec writer (bankgate-resource-spec) and the CMake files with which
# find_package(bankgate CONFIG) gives the same targets and bankgate_add_gpu_suite() as a subproject build.
include(CMakePackageConfigHelpers)

if(BANKGATE_GTEST_FROM_SOURCE)
  message(WARNING "bankgate: GoogleTest was built from its sources here, so bankgate::gtest cannot be installed "
                  "against it; install libgtest-dev to install bankgate. Installing is turned off.")
  return()
endif()

install(DIRECTORY core/include/ cupti_collector/include/ gate/include/ gtest/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS bankgate_core bankgate_collector bankgate_gate bankgate_gtest bankgate_gtest_main bankgate EXPORT bankgateTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(PROGRAMS cli/bankgate-resource-spec.sh DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME bankgate-resource-spec)
set(bankgate_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/bankgate)
install(EXPORT bankgateTargets NAMESPACE bankgate:: DESTINATION ${bankgate_cmake_dir})
configure_package_config_file(cmake/bankgateConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/bankgateConfig.cmake
                              INSTALL_DESTINATION ${bankgate_cmake_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/bankgateConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
# The licence (Apache-2.0) and its notice, where distributions keep a package's documents.
install(FILES LICENSE NOTICE DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The JSON Schemas of the command's outputs, for tools that validate what they read (docs/outputs.md).
install(DIRECTORY schemas/ DESTINATION ${CMAKE_INSTALL_DATADIR}/bankgate/schemas FILES_MATCHING PATTERN "*.schema.json")
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/bankgateConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/bankgateConfigVersion.cmake
              cmake/bankgateDependencies.cmake cmake/bankgateSuite.cmake cmake/bankgateCudaCxx20.cmake
        DESTINATION ${bankgate_cmake_dir})
