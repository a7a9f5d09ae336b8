# What bankgate's libraries and command need: the CUDA toolkit (runtime, CUPTI: the collector's alone), threads,
# nlohmann-json, GoogleTest, and for the command CLI11 and pugixml. Included by bankgate's own build and by the
# installed package's bankgateConfig.cmake, so both find the same things. Each missing piece stops the
# configure with the package or setting that supplies it.
include_guard(GLOBAL)

find_package(CUDAToolkit REQUIRED)
find_package(Threads REQUIRED)  # the collector evaluates metrics on threads of its own
if(NOT TARGET CUDA::cupti)
  message(FATAL_ERROR "bankgate: CUPTI was not found in the CUDA toolkit at ${CUDAToolkit_LIBRARY_ROOT}. Install the "
                      "toolkit's CUPTI component (cuda-cupti-dev-13-0) or point CUDAToolkit_ROOT at a full toolkit.")
endif()

find_package(nlohmann_json 3.10 QUIET)
if(NOT TARGET nlohmann_json::nlohmann_json)
  message(FATAL_ERROR "bankgate: nlohmann-json was not found. Install it (apt-get install nlohmann-json3-dev) or add "
                      "the folder holding share/cmake/nlohmann_json to CMAKE_PREFIX_PATH.")
endif()

# GoogleTest: the installed package, or its sources where only those ship (/usr/src/googletest).
find_package(GTest QUIET)
if(NOT TARGET GTest::gtest)
  find_path(BANKGATE_GTEST_SOURCE_DIR CMakeLists.txt PATHS /usr/src/googletest NO_DEFAULT_PATH)
  if(NOT BANKGATE_GTEST_SOURCE_DIR)
    message(FATAL_ERROR "bankgate: GoogleTest was not found. Install it (apt-get install libgtest-dev) or add its "
                        "prefix to CMAKE_PREFIX_PATH.")
  endif()
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  add_subdirectory("${BANKGATE_GTEST_SOURCE_DIR}" "${CMAKE_BINARY_DIR}/_bankgate_googletest" EXCLUDE_FROM_ALL)
  add_library(GTest::gtest ALIAS gtest)
  add_library(GTest::gtest_main ALIAS gtest_main)
  set(BANKGATE_GTEST_FROM_SOURCE ON)
endif()
include(GoogleTest)

# The command's argument parser and XML reader; an installed package has its command built already.
if(NOT BANKGATE_COMMAND_PREBUILT)
  find_package(CLI11 2.1 QUIET)
  if(NOT TARGET CLI11::CLI11)
    message(FATAL_ERROR "bankgate: CLI11 was not found. Install it (apt-get install libcli11-dev) or add the folder "
                        "holding share/cmake/CLI11 to CMAKE_PREFIX_PATH.")
  endif()
  # The history store (history/): SQLite files where SQLite is found (the default store), a PostgreSQL server where
  # libpq is. Without either the command still builds, gates and judges; a run that would keep its history says
  # what to install instead (a project that adopted bankgate before the history store builds as it did).
  find_package(SQLite3 QUIET)
  if(TARGET SQLite::SQLite3)
    set(BANKGATE_HISTORY_SQLITE ON)
  else()
    set(BANKGATE_HISTORY_SQLITE OFF)
    message(STATUS "bankgate: SQLite not found: no history store of SQLite files (apt-get install libsqlite3-dev, "
                   "or add its prefix to CMAKE_PREFIX_PATH)")
  endif()
  find_package(PostgreSQL QUIET)
  if(TARGET PostgreSQL::PostgreSQL)
    set(BANKGATE_HISTORY_POSTGRESQL ON)
  else()
    set(BANKGATE_HISTORY_POSTGRESQL OFF)
    message(STATUS "bankgate: libpq not found: the history store takes SQLite files only (apt-get install libpq-dev "
                   "for PostgreSQL servers)")
  endif()
endif()
find_package(pugixml 1.11 QUIET)
# The static library where the package has one: the command then needs no pugixml at run time.
if(TARGET pugixml::static)
  set(BANKGATE_PUGIXML_TARGET pugixml::static)
elseif(TARGET pugixml::pugixml)
  set(BANKGATE_PUGIXML_TARGET pugixml::pugixml)
else()
  message(FATAL_ERROR "bankgate: pugixml was not found. Install it (apt-get install libpugixml-dev) or add its "
                      "prefix to CMAKE_PREFIX_PATH.")
endif()
