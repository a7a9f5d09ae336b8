#pragma once
// Colour on the console: a verdict that fails in red, a pass in green, an undecided one in yellow. Off unless
// the command turns it on for a terminal (cli/console.cpp): a Palette made by default paints nothing, so the
// reports written to files (markdown, JSON, HTML, JUnit), whose renderers never take one, hold no escape codes.

#include <string>
#include <string_view>

#include <bankgate/gate/rules/comparison.hpp>

namespace bankgate::gate {

enum class Tone { plain, good, bad, doubtful };

class Palette {
 public:
  Palette() = default;  // paints nothing
  static Palette coloured();
  bool enabled() const { return enabled_; }
  // `text` between the tone's ANSI colour code and the reset; `text` as it is where the palette is off or the tone
  // plain. `text` must already be terminal-safe (text.hpp): the codes added here are the only ones let through.
  std::string paint(std::string_view text, Tone tone) const;

 private:
  bool enabled_ = false;
};

// What a row of a comparison or review contributes to its exit code: a failure (or a wrong output) is bad, an
// inconclusive duration doubtful, the rest good.
Tone tone_of(Verdict verdict, bool correct = true, bool fail_on_speedup = false);

enum class ColourChoice { automatic, always, never };  // --color=auto|always|never

// Whether the console gets colour: `always` and `never` as they say; `automatic` only on a terminal, and not
// where NO_COLOR is set to anything but the empty string (no-color.org), which --color=always overrides.
bool use_colour(ColourChoice choice, bool terminal, bool no_color_set);

}  // namespace bankgate::gate
