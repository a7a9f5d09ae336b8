#pragma once
// How this process speaks to the person reading it: quietly or not, in colour or not. main() sets it once from
// --quiet, --color, NO_COLOR and whether the human text goes to a terminal; the subcommands read it. One
// setting of the process, like standard_output() (commands.hpp), rather than a field of every options struct.

#include <string>

#include <bankgate/gate/reports/colour.hpp>

namespace bankgate::cli {

struct Console {
  bool quiet = false;     // --quiet: no progress lines; the build's and ctest's output to log files
  gate::Palette palette;  // off unless colour was chosen for a terminal (gate/reports/colour.hpp)
};

Console& console();

// Sets console() for the command line's --quiet and --color (auto, always, never): colour where chosen, or
// where auto finds the human text going to the terminal `human_text_fd` and NO_COLOR unset or empty.
void set_up_console(bool quiet, const std::string& colour, int human_text_fd);

// A line that says what the command is doing now ("building: ...", "round 2 of 5 done"): printed on standard
// output, left out with --quiet.
void progress(const std::string& line);

// The console without colour while text meant for it is written to a file (a log), restored after.
class PlainConsole {
 public:
  PlainConsole() : saved_(console().palette) { console().palette = gate::Palette(); }
  ~PlainConsole() { console().palette = saved_; }
  PlainConsole(const PlainConsole&) = delete;
  PlainConsole& operator=(const PlainConsole&) = delete;

 private:
  gate::Palette saved_;
};

}  // namespace bankgate::cli
