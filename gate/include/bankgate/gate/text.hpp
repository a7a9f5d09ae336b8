#pragma once
// Text that came from outside (names and messages of tests, strings of baselines) on its way to a terminal, a
// log or a JSON, XML or HTML writer: decoded, repaired and made inert in one place.

#include <cstddef>
#include <string>
#include <string_view>

namespace bankgate::gate {

// The length of the well-formed UTF-8 sequence that starts text[at] (shortest form, no surrogate, at most
// U+10FFFF, as RFC 3629 allows), with its code point in `code_point`; 0 where the bytes there are not one.
std::size_t utf8_sequence(std::string_view text, std::size_t at, char32_t& code_point);

// `text` with every byte sequence that is not UTF-8 (a stray byte, a cut-off, overlong or surrogate sequence)
// replaced by U+FFFD. Text from outside (a test's failure message) may hold any bytes; the JSON, XML and HTML
// writers need UTF-8, and nlohmann::json refuses to dump anything else.
std::string valid_utf8(std::string_view text);

// `text` made safe to print on a terminal or in a CI log: control characters other than newline and tab (C0,
// DEL and C1, which a terminal obeys as commands: ESC [2J clears the screen, CR overwrites a line) become a
// visible "\x1b"; bytes that are not UTF-8 become U+FFFD. Names and messages in reports come from whoever
// wrote the tests, so every console renderer passes its output through this once, as it is produced.
std::string terminal_safe(std::string_view text);

}  // namespace bankgate::gate
