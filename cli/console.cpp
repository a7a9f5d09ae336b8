#include "console.hpp"

#include <unistd.h>

#include <iostream>

#include <bankgate/gate/protocol/settings.hpp>
#include <bankgate/gate/text/text.hpp>

namespace bankgate::cli {

Console& console() {
  static Console settings;
  return settings;
}

void set_up_console(bool quiet, const std::string& colour, int human_text_fd) {
  const gate::ColourChoice choice = colour == "always"  ? gate::ColourChoice::always
                                    : colour == "never" ? gate::ColourChoice::never
                                                        : gate::ColourChoice::automatic;
  console().quiet = quiet;
  const bool coloured =
      gate::use_colour(choice, isatty(human_text_fd) == 1, gate::colour_refused(gate::process_environment));
  console().palette = coloured ? gate::Palette::coloured() : gate::Palette();
}

void progress(const std::string& line) {
  // A progress line names folders and commands: shown on one line, escaped, whatever they hold.
  if (!console().quiet) std::cout << gate::terminal_line(line) << "\n";
}

}  // namespace bankgate::cli
