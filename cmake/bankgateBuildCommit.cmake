# Run as a script at every build of the command (cli/CMakeLists.txt): writes OUTPUT, the source of
# bankgate::cli::build_commit() (cli/build_commit.hpp), the commit of SOURCE_DIR the build is made from ("<hash>",
# "<hash>-dirty" with uncommitted changes, "unknown" outside a git checkout), rewriting it only when that changed,
# so that `bankgate --version` names what it was built from without rebuilding the command every time.
#   cmake -DSOURCE_DIR=... -DOUTPUT=... -P bankgateBuildCommit.cmake
set(commit "unknown")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" rev-parse --verify -q HEAD
                  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE found ERROR_QUIET)
  if(found EQUAL 0 AND head MATCHES "^[0-9a-f]+$")
    set(commit "${head}")
    execute_process(COMMAND "${GIT_EXECUTABLE}" -C "${SOURCE_DIR}" status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE changes RESULT_VARIABLE status_ok ERROR_QUIET)
    if(status_ok EQUAL 0 AND NOT changes STREQUAL "")
      string(APPEND commit "-dirty")
    endif()
  endif()
endif()
set(text "// Written by cmake/bankgateBuildCommit.cmake at build time.\n#include \"build_commit.hpp\"\n\nconst char* bankgate::cli::build_commit() { return \"${commit}\"; }\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUTPUT}" "${text}")
endif()
