#!/usr/bin/env bash
# cmake/bankgateSuite.cmake's arguments, on small projects configured as an adopter writes them (no GPU, no build):
# LIBRARIES links a library of the project's own kernels to the suite and gives its CUDA sources -lineinfo;
# bankgate_add_line_info() gives them to a library linked otherwise; an argument the function does not know, or a
# name that is no library, stops the configure with what to write instead.
#   tests/unit/suite_cmake_test.sh CMAKE CUDA_COMPILER PROJECT_DIR
set -uo pipefail
cmake=${1:?usage: suite_cmake_test.sh CMAKE CUDA_COMPILER PROJECT_DIR}
nvcc=${2:?usage: suite_cmake_test.sh CMAKE CUDA_COMPILER PROJECT_DIR}
project=${3:?usage: suite_cmake_test.sh CMAKE CUDA_COMPILER PROJECT_DIR}
. "$(dirname "$0")/test_lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/bankgate-suite-cmake.XXXXXX")
trap 'rm -rf "$work"' EXIT

# project NAME LANGUAGES BODY: a project that includes the function as the package does, with stand-ins for the
# package's own targets (a suite needs bankgate::gtest_main to link and the bankgate command to list its tests;
# configuring needs nothing of them but their names).
project() {
  mkdir -p "$work/$1"
  cat >"$work/$1/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project($1 LANGUAGES $2)
add_library(bankgate::gtest_main INTERFACE IMPORTED)
add_executable(bankgate::bankgate IMPORTED)
set_target_properties(bankgate::bankgate PROPERTIES IMPORTED_LOCATION /bin/true)
include("$project/cmake/bankgateSuite.cmake")
$3
CMAKE
  for source in suite.cpp kernels.cu other.cu plain.cu; do echo "// $source" >"$work/$1/$source"; done
}
# CMake wraps its messages over lines: the output is read with every run of spaces and newlines as one space.
configure() {
  run "$cmake" -S "$work/$1" -B "$work/$1/build" -G Ninja -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=90
  out=$(tr -s "[:space:]" " " <<<"$out")
}
# The compile command of one object, as ninja would run it.
compile_of() { ninja -C "$work/$1/build" -t commands "$2" 2>/dev/null | grep -F -- "$3" | grep -F -- " -c " | tail -n 1; }

project libraries "CXX CUDA" '
add_library(kernels STATIC kernels.cu)
add_library(other STATIC other.cu)
add_library(plain STATIC plain.cu)
bankgate_add_gpu_suite(library_suite SOURCES suite.cpp LIBRARIES kernels)
target_link_libraries(library_suite PRIVATE other plain)
bankgate_add_line_info(other)'
configure libraries
expect_rc "a suite with LIBRARIES configures (it used to read LIBRARIES as a source file)" 0
check "LIBRARIES gives the library's CUDA sources -lineinfo" \
  'compile_of libraries kernels kernels.cu | grep -q -- -lineinfo' "$(compile_of libraries kernels kernels.cu)"
link=$(ninja -C "$work/libraries/build" -t commands library_suite 2>/dev/null | tail -n 1)
expect_in "LIBRARIES links the library to the suite" "libkernels.a" "$link"
check "bankgate_add_line_info() gives a library -lineinfo" \
  'compile_of libraries other other.cu | grep -q -- -lineinfo' "$(compile_of libraries other other.cu)"
check "a library named in neither is left as it is" \
  '! compile_of libraries plain plain.cu | grep -q -- -lineinfo' "$(compile_of libraries plain plain.cu)"

# The measuring tests' own CTest file names each suite's folder once, and none below another it names: ctest reads
# a folder's subfolders with it, so a nested one would be read, and its suite measured, twice.
project nested CXX '
bankgate_add_gpu_suite(top_suite SOURCES suite.cpp)
bankgate_add_gpu_suite(top_suite_two SOURCES suite.cpp)
add_subdirectory(inner)'
mkdir -p "$work/nested/inner" && echo "// inner" >"$work/nested/inner/suite.cpp"
echo 'bankgate_add_gpu_suite(inner_suite SOURCES suite.cpp)' >"$work/nested/inner/CMakeLists.txt"
configure nested
expect_rc "a project with a suite in a folder below another suite's configures" 0
listed=$(cat "$work/nested/build/bankgate/measuring-tests/CTestTestfile.cmake" 2>&1)
check "the measuring tests' file names the top folder once, and not the folder below it" \
  '[ "$(grep -c "^subdirs" <<<"$listed")" = 1 ] && grep -q "subdirs(\"$work/nested/build\")" <<<"$listed"' "$listed"
measuring=$(cd "$work/nested/build" && "$(dirname "$cmake")/ctest" --test-dir bankgate/measuring-tests -N 2>&1)
check "ctest there lists each measuring test once" \
  '[ "$(grep -c "bankgate.measure.inner_suite$" <<<"$measuring")" = 1 ] && [ "$(grep -c "bankgate.measure.top_suite$" <<<"$measuring")" = 1 ]' \
  "$measuring"

project unknown CXX 'bankgate_add_gpu_suite(unknown_suite SOURCES suite.cpp DEPENDS kernels)'
configure unknown
expect_rc "an unknown argument stops the configure" 1
expect_in "it is named as no argument, with those the function takes" \
  "'DEPENDS' is no argument of bankgate_add_gpu_suite and no source file; it takes SOURCES, LIBRARIES" "$out"

project no_target CXX 'bankgate_add_line_info(kernel_library)'
configure no_target
expect_rc "bankgate_add_line_info() of a name that is no target stops the configure" 1
expect_in "it says what to name" "'kernel_library' is no target of this project; name a library defined before the call" "$out"

project imported CXX '
add_library(vendor STATIC IMPORTED)
bankgate_add_line_info(vendor)'
configure imported
expect_rc "bankgate_add_line_info() of an imported library stops the configure" 1
expect_in "it says where line tables come from then" "'vendor' is imported: its kernels were compiled by the project that exports it" "$out"

project header_only CXX '
add_library(header_kernels INTERFACE)
bankgate_add_line_info(header_kernels)
get_target_property(options header_kernels INTERFACE_COMPILE_OPTIONS)
message(NOTICE "interface options: ${options}")'
configure header_only
expect_rc "a header-only library of kernels takes line information" 0
expect_in "its users compile its kernels with -lineinfo" "interface options: \$<\$<COMPILE_LANGUAGE:CUDA>:-lineinfo>" "$out"
finish
