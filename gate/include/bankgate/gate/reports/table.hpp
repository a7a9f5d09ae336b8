#pragma once
// The console's fixed-width tables: columns aligned, the last one wrapped to keep within a width, a toned column
// coloured where the console has colour.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <bankgate/gate/reports/colour.hpp>

namespace bankgate::gate {

// The console tables keep within 100 columns: a CI log viewer's width, or half a wide terminal.
inline constexpr std::size_t console_width = 100;

// How a table is laid out and coloured on the console. The default is the plain table of any width.
struct TableStyle {
  // The most columns a line may take, 0 for no limit. Only the last column gives way: a cell too long for it
  // goes on over continuation lines, broken between words, rather than being cut (it holds a reason or a
  // detail, which is read whole). Other columns wider than the limit leave the last at least 24 columns.
  std::size_t width = 0;
  Palette palette;               // off by default
  std::size_t toned_column = 0;  // the column whose cells take their row's tone
  std::vector<Tone> tones;       // one per row after the header; none: nothing is coloured
};

// A fixed-width text table; the first row is the header. Cells are made terminal-safe lines (terminal_line) and measured
// in characters, so that an escaped or non-ASCII cell keeps its column aligned.
std::string format_table(const std::vector<std::vector<std::string>>& rows, const TableStyle& style = {});

// A line of text over lines of at most `width` characters, broken between words (a word longer than a line is
// cut), its indent kept on the first; a line that fits is returned as it is, its spacing kept.
std::vector<std::string> wrap_line(std::string_view text, std::size_t width);

}  // namespace bankgate::gate
