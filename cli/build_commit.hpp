#pragma once
// The commit this command was built from, read at build time (cmake/bankgateBuildCommit.cmake writes the
// definition): "<hash>", "<hash>-dirty", or "unknown" outside a git checkout. For `bankgate --version`.

namespace bankgate::cli {

const char* build_commit();

}  // namespace bankgate::cli
