#pragma once
// Text that came from outside (names and messages of tests, strings of baselines, file names) on its way to a
// sink: one encoder per sink, here and nowhere else, and every writer of that sink uses it. A test's name is
// whatever the pull request under test made it, so each encoder assumes nothing of its input: any bytes,
// invalid UTF-8 included, come out inert for that sink.
//
//   terminal, CI log     terminal_safe (a message over lines), terminal_line (a name, a path, a table cell)
//   a command line       shell_quote (POSIX sh); filter_literal (a test filter naming one test exactly)
//   markdown             markdown_text (outside code), markdown_code (a code span), markdown_code_block
//   HTML                 html_text
//   XML 1.0              xml_text
//   JSON                 json_text (a whole document)

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace bankgate::gate {

// The length of the well-formed UTF-8 sequence that starts text[at] (shortest form, no surrogate, at most
// U+10FFFF, as RFC 3629 allows), with its code point in `code_point`; 0 where the bytes there are not one.
std::size_t utf8_sequence(std::string_view text, std::size_t at, char32_t& code_point);

// `text` with every byte sequence that is not UTF-8 (a stray byte, a cut-off, overlong or surrogate sequence)
// replaced by U+FFFD. Text from outside (a test's failure message) may hold any bytes; the JSON, XML and HTML
// writers need UTF-8, and nlohmann::json refuses to dump anything else.
std::string valid_utf8(std::string_view text);

// The one definition of a control character, for every reader and writer: C0 controls, DEL, and the C1 controls
// (U+0080 to U+009F; U+009B is a one-character CSI).
bool is_control_character(char32_t c);
// The characters that reorder the text around them as it is shown (Unicode's bidirectional marks, embeddings,
// overrides and isolates): "abc<U+202E>fed" is shown as "abcdef", a name posing as another.
bool is_bidi_control(char32_t c);

// `text` made safe to print on a terminal or in a CI log: control characters other than newline and tab (C0,
// DEL and C1, which a terminal obeys as commands: ESC [2J clears the screen, CR overwrites a line) become a
// visible "\x1b"; the characters that reorder what is shown (bidirectional overrides and isolates, U+202E)
// become a visible "\u202e"; bytes that are not UTF-8 become U+FFFD. For messages, which may span lines.
std::string terminal_safe(std::string_view text);

// The same for text that must stay on one line: a test's or a file's name, a path, a table cell. Newline, tab,
// the line and paragraph separators (U+2028, U+2029) and the invisible characters (zero-width space and
// joiners, word joiner, byte order mark, soft hyphen) are shown escaped as well, so that a name can neither
// start a forged line of its own nor pass for another name.
std::string terminal_line(std::string_view text);

// A count and its noun, "1 test" or "2 tests": plural by an 's'.
std::string counted(std::size_t n, std::string_view noun);

// `word` as one word of a POSIX shell command line: in single quotes (inside which nothing is special), each '
// written '\''; left bare where it holds only characters no shell treats specially, unless `always`.
std::string shell_quote(std::string_view word, bool always = false);

// One word of a printed command: quoted where a shell would read it otherwise, or always where `always_quoted`
// (a name from input, so that the advice reads alike whatever the name holds).
struct CommandWord {
  CommandWord(std::string_view word) : text(word) {}
  CommandWord(const std::string& word) : text(word) {}
  CommandWord(const char* word) : text(word) {}
  std::string text;
  bool always_quoted = false;
};
CommandWord quoted_name(std::string_view word);

// A command as a person pastes it, its words each through shell_quote and joined by spaces: the one way every
// printed command is built (tests/unit/printed_commands_test.py holds the sources to it), so that pasting it
// runs that command and nothing else, whatever a folder's or a test's name holds.
std::string command_line(const std::vector<CommandWord>& words);
std::string as_command_line(const std::vector<std::string>& argv);

// The filter (--filter, test_filter.hpp's syntax) that selects exactly the test `name`, on one line: each
// character with a meaning there ('*', '?', ':', '-', '\') escaped by '\', and each that cannot be shown as it
// is on one line (what terminal_line escapes, a byte that is not UTF-8) written "\xHH", byte by byte.
std::string filter_literal(std::string_view name);

// `text` in markdown outside code, read as the characters it holds and nothing else: no emphasis, link, image,
// HTML, table cell or code span can start in it (the markdown specials backslash-escaped, & < > as entities),
// GitHub makes no bare link or mention of it ("://" and "www." escaped, a word joiner after '@'), and a newline
// becomes <br>, so no line of it can start a heading, a list or a quote. For text after other text on its line:
// a table cell, a list item, a heading. Controls are shown escaped, as on a terminal.
std::string markdown_text(std::string_view text);

// Where a code span stands: in a table row, where GitHub's tables split cells at every unescaped '|', even inside
// a code span, or anywhere else.
enum class MarkdownPlace { prose, table };

// `text` as a markdown code span, on one line (controls and newlines shown escaped, as terminal_line does):
// between backtick fences longer than any run of backticks in it, so that none of it can close the span.
std::string markdown_code(std::string_view text, MarkdownPlace place = MarkdownPlace::prose);

// `text` as a fenced code block with the info string `info`: the fence is longer than any run of backticks in the
// text, so that no line of it can close the block. Controls other than newline and tab shown escaped.
std::string markdown_code_block(std::string_view text, std::string_view info = "text");

// `text` for an HTML element or a quoted attribute value: & < > " ' as character references, so that nothing
// in it is markup; bytes that are not UTF-8 become U+FFFD.
std::string html_text(std::string_view text);

// `text` as XML 1.0 may hold it: the characters XML 1.0 forbids even as character references (the C0 controls
// but tab, newline and carriage return; U+FFFE, U+FFFF) shown escaped as on a terminal ("\x1b", "\ufffe"), and
// bytes that are not UTF-8 as U+FFFD. Escaping the markup itself (& < > ") is the XML writer's (pugixml) job.
std::string xml_text(std::string_view text);

// `document` as JSON text, `indent` spaces a level (-1: on one line), as every JSON writer of bankgate writes it:
// each string as UTF-8, a byte that is not UTF-8 as U+FFFD. A name, a message, --command or BANKGATE_GIT_COMMIT
// may hold any bytes; nlohmann::json would throw on them by default, and the whole output would be lost.
std::string json_text(const nlohmann::json& document, int indent = 2);

}  // namespace bankgate::gate
