// The console's fixed-width tables (table.hpp).
#include <bankgate/gate/reports/table.hpp>
#include <bankgate/gate/text/text.hpp>

#include <algorithm>
#include <numeric>
#include <sstream>
#include <string_view>

namespace bankgate::gate {
namespace {

using Cell = std::vector<std::string>;  // a cell's lines: one, or more where it was wrapped
using Row = std::vector<Cell>;

// The narrowest the last column is made, whatever the width asked for: narrower, a reason reads a word a line.
constexpr std::size_t narrowest_wrapped_column = 24;

// The bytes of the character at text[at] (terminal-safe text is UTF-8; a stray byte counts as one).
std::size_t character_bytes(std::string_view text, std::size_t at) {
  char32_t c = 0;
  const std::size_t length = utf8_sequence(text, at, c);
  return length == 0 ? 1 : length;
}

// How many bytes the first `characters` characters of `text` take.
std::size_t bytes_of(std::string_view text, std::size_t characters) {
  std::size_t at = 0;
  for (; at < text.size() && characters > 0; --characters) at += character_bytes(text, at);
  return at;
}

// What a terminal shows of `text`: one column per character, whatever its bytes.
std::size_t columns_of(std::string_view text) {
  std::size_t columns = 0;
  for (std::size_t at = 0; at < text.size(); ++columns) at += character_bytes(text, at);
  return columns;
}

// `text` over lines of at most `width` characters, broken between words; a word longer than a line is cut.
Cell wrapped(std::string_view text, std::size_t width) {
  Cell lines{std::string()};
  std::size_t used = 0;  // characters on the last line
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find(' ', start), text.size());
    std::string_view word = text.substr(start, end - start);
    start = end + 1;
    if (word.empty()) continue;
    std::size_t length = columns_of(word);
    if (used > 0 && used + 1 + length <= width) {
      lines.back().append(" ").append(word);
      used += 1 + length;
      continue;
    }
    if (used > 0) lines.emplace_back();
    for (; length > width; length -= width) {
      const std::size_t cut = bytes_of(word, width);
      lines.back() = std::string(word.substr(0, cut));
      lines.emplace_back();
      word.remove_prefix(cut);
    }
    lines.back() = std::string(word);
    used = length;
  }
  return lines;
}

std::size_t widest_line(const Cell& cell) {
  std::size_t widest = 0;
  for (const std::string& line : cell) widest = std::max(widest, columns_of(line));
  return widest;
}

std::vector<std::size_t> column_widths(const std::vector<Row>& rows) {
  std::vector<std::size_t> widths;
  for (const Row& row : rows)
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (widths.size() <= i) widths.push_back(0);
      widths[i] = std::max(widths[i], widest_line(row[i]));
    }
  return widths;
}

// Wraps the last column's cells where the table would be wider than `width`; returns the widths after.
std::vector<std::size_t> fit(std::vector<Row>& rows, std::size_t width) {
  std::vector<std::size_t> widths = column_widths(rows);
  if (width == 0 || widths.size() < 2) return widths;
  const std::size_t last = widths.size() - 1;
  const std::size_t others = std::accumulate(widths.begin(), widths.end() - 1, std::size_t{0}) + 2 * last;
  if (others + widths[last] <= width) return widths;
  const std::size_t room = std::max(narrowest_wrapped_column, width > others ? width - others : 0);
  for (Row& row : rows)
    if (row.size() > last && widest_line(row[last]) > room) row[last] = wrapped(row[last].front(), room);
  return column_widths(rows);
}

// One row's lines: its cells side by side, the toned one painted after it is measured; no spaces at the end,
// where the last cell is empty.
void print_row(std::ostream& out, const Row& row, const std::vector<std::size_t>& widths, const TableStyle& style,
               Tone tone) {
  std::size_t lines = 0;
  for (const Cell& cell : row) lines = std::max(lines, cell.size());
  for (std::size_t line = 0; line < lines; ++line) {
    std::string text;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const std::string cell = line < row[i].size() ? row[i][line] : "";
      text += i == style.toned_column ? style.palette.paint(cell, tone) : cell;
      if (i + 1 < row.size()) text += std::string(widths[i] - columns_of(cell) + 2, ' ');
    }
    out << text.substr(0, text.find_last_not_of(' ') + 1) << "\n";
  }
}

}  // namespace

std::vector<std::string> wrap_line(std::string_view text, std::size_t width) {
  if (columns_of(text) <= width) return {std::string(text)};
  // The line's own indent kept on its first line, so that a message's nested lines stay nested.
  const std::size_t indent = std::min(text.find_first_not_of(' '), width / 2);
  Cell lines = wrapped(text.substr(indent), width - indent);
  lines.front().insert(0, indent, ' ');
  return lines;
}

std::string format_table(const std::vector<std::vector<std::string>>& raw_rows, const TableStyle& style) {
  // Cells made terminal-safe, each on one line, before they are measured: an escaped cell keeps its column aligned,
  // and a newline in a name cannot start a forged row.
  std::vector<Row> rows;
  for (const auto& raw : raw_rows) {
    rows.emplace_back();
    for (const std::string& cell : raw) rows.back().push_back({terminal_line(cell)});
  }
  const std::vector<std::size_t> widths = fit(rows, style.width);
  std::ostringstream out;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const bool toned = r > 0 && r - 1 < style.tones.size();
    print_row(out, rows[r], widths, style, toned ? style.tones[r - 1] : Tone::plain);
    if (r == 0) {
      const std::size_t total = std::accumulate(widths.begin(), widths.end(), std::size_t{0}) + 2 * widths.size();
      out << std::string(total > 2 ? total - 2 : 0, '-') << "\n";
    }
  }
  return out.str();
}

}  // namespace bankgate::gate
