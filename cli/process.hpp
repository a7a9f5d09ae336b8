#pragma once
// Running the other programs of a project's loop (cmake, ctest, git) without a shell: arguments are passed as
// they are, so paths and filters need no quoting.

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <bankgate/gate/text/text.hpp>

namespace bankgate::cli {

// Variables a child gets on top of this process's environment (replacing any of the same name). What one
// bankgate process tells the next goes this way, into the child's environment only: this process's own stays as
// it was started.
using ChildEnvironment = std::vector<std::pair<std::string, std::string>>;

// Runs `argv` (argv[0] looked up on PATH), waits, and returns its exit status; 128 + N when killed by signal N,
// 127 when it could not be started. Its output goes to ours, or to `log` (both streams) when one is given.
int run_program(const std::vector<std::string>& argv, const std::string& log = "", const ChildEnvironment& extra = {});

// Runs `argv` as run_program does (its output to ours), asking `watch` every watch_interval while it runs: where it
// says kill, the child is killed (SIGKILL) and its status returned (128 + 9), and where it says let_go, the child is
// left to end on its own and its id returned, for reap_child. A suite process that hangs in a test is ended this way
// by run-suite, which can then say which test hung and go on with the rest; one that has handed its result over
// (protocol::finished_marker) is let go while it exits.
enum class Watching { go_on, kill, let_go };
inline constexpr std::chrono::milliseconds watch_interval{5};
struct Watched {
  std::optional<int> status;  // how the child ended; nullopt where it was let go
  pid_t let_go = 0;           // the child let go, still ending
};
Watched run_program_watched(const std::vector<std::string>& argv, const ChildEnvironment& extra,
                            const std::function<Watching()>& watch);
// Waits until a child that run_program_watched let go has ended, killing it (SIGKILL) where it takes longer than
// `patience`: an exit that hangs must not hold up what comes next.
void reap_child(pid_t pid, std::chrono::seconds patience);

// Runs `argv` and returns what it printed on standard output (trailing newlines removed); empty on failure.
std::string program_output(const std::vector<std::string>& argv, const ChildEnvironment& extra = {});

// "cmake --build build" as a person would type it, for messages (text.hpp's, the one quoting of commands).
using gate::as_command_line;

}  // namespace bankgate::cli
