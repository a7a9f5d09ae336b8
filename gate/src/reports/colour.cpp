#include <bankgate/gate/reports/colour.hpp>

namespace bankgate::gate {

Palette Palette::coloured() {
  Palette palette;
  palette.enabled_ = true;
  return palette;
}

std::string Palette::paint(std::string_view text, Tone tone) const {
  const char* code = nullptr;
  switch (tone) {
    case Tone::plain:
      break;
    case Tone::good:
      code = "\x1b[32m";
      break;  // green
    case Tone::bad:
      code = "\x1b[1;31m";
      break;  // bold red: what needs the reader first
    case Tone::doubtful:
      code = "\x1b[33m";
      break;  // yellow
  }
  if (!enabled_ || code == nullptr || text.empty()) return std::string(text);
  return code + std::string(text) + "\x1b[0m";
}

Tone tone_of(Verdict verdict, bool correct, bool fail_on_speedup) {
  if (!correct || is_failure(verdict, fail_on_speedup)) return Tone::bad;
  return verdict == Verdict::inconclusive ? Tone::doubtful : Tone::good;
}

bool use_colour(ColourChoice choice, bool terminal, bool no_color_set) {
  switch (choice) {
    case ColourChoice::always:
      return true;
    case ColourChoice::never:
      return false;
    case ColourChoice::automatic:
      break;
  }
  return terminal && !no_color_set;
}

}  // namespace bankgate::gate
