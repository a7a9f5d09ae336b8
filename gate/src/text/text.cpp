#include <bankgate/gate/text/text.hpp>

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

namespace bankgate::gate {

std::size_t utf8_sequence(std::string_view text, std::size_t at, char32_t& code_point) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) {
    code_point = lead;
    return 1;
  }
  // The lead byte gives the length, its low bits the first bits of the code point; each length has a smallest
  // code point, below which the sequence is an overlong spelling of a shorter one.
  std::size_t length = 0;
  char32_t value = 0, smallest = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, value = lead & 0x1Fu, smallest = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, value = lead & 0x0Fu, smallest = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, value = lead & 0x07u, smallest = 0x10000;
  } else {
    return 0;  // a continuation byte without its lead, or a byte UTF-8 never uses
  }
  if (text.size() - at < length) return 0;
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return 0;
    value = (value << 6) | (byte(at + i) & 0x3Fu);
  }
  if (value < smallest || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return 0;
  code_point = value;
  return length;
}

namespace {

constexpr std::string_view replacement_character = "\xEF\xBF\xBD";  // U+FFFD in UTF-8

// Characters shown as nothing at all: soft hyphen, Mongolian vowel separator, zero-width space, non-joiner and
// joiner, word joiner and the invisible operators, byte order mark.
bool is_invisible(char32_t c) {
  return c == 0x00AD || c == 0x180E || (c >= 0x200B && c <= 0x200D) || (c >= 0x2060 && c <= 0x2064) || c == 0xFEFF;
}

bool is_line_separator(char32_t c) { return c == 0x2028 || c == 0x2029; }

// What a one-line text cannot show as it is: anything that breaks, reorders or hides part of the line.
bool breaks_a_line(char32_t c) {
  return is_control_character(c) || is_bidi_control(c) || is_invisible(c) || is_line_separator(c);
}

// The character as visible text: "\x1b" up to U+00FF, "\u202e" above.
std::string escaped(char32_t c) {
  char text[12];
  if (c < 0x100)
    std::snprintf(text, sizeof text, "\\x%02x", static_cast<unsigned>(c));
  else
    std::snprintf(text, sizeof text, "\\u%04x", static_cast<unsigned>(c));
  return text;
}

// `text` rebuilt code point by code point: `keep` appends each well-formed one (given its bytes); a byte that
// fits no sequence becomes `invalid`, once per byte: simple, and never hides a valid sequence after it.
template <class Keep>
std::string rebuilt(std::string_view text, Keep keep, std::string_view invalid = replacement_character) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    char32_t c = 0;
    const std::size_t length = utf8_sequence(text, at, c);
    if (length == 0) {
      out += invalid;
      ++at;
    } else {
      keep(out, c, text.substr(at, length));
      at += length;
    }
  }
  return out;
}

// The longest run of `mark` in `text`.
std::size_t longest_run(std::string_view text, char mark) {
  std::size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == mark ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

// Whether `out` ends in "www" (any case): a '.' after it would start one of GitHub's bare links.
bool after_www(const std::string& out) {
  if (out.size() < 3) return false;
  const std::string_view end = std::string_view(out).substr(out.size() - 3);
  return std::all_of(end.begin(), end.end(), [](char c) { return c == 'w' || c == 'W'; });
}

}  // namespace

bool is_control_character(char32_t c) { return c < 0x20 || (c >= 0x7F && c <= 0x9F); }

bool is_bidi_control(char32_t c) {
  return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

std::string valid_utf8(std::string_view text) {
  return rebuilt(text, [](std::string& out, char32_t, std::string_view bytes) { out += bytes; });
}

std::string terminal_safe(std::string_view text) {
  return rebuilt(text, [](std::string& out, char32_t c, std::string_view bytes) {
    const bool shown = (is_control_character(c) && c != '\n' && c != '\t') || is_bidi_control(c);
    out += shown ? escaped(c) : std::string(bytes);
  });
}

std::string terminal_line(std::string_view text) {
  return rebuilt(text, [](std::string& out, char32_t c, std::string_view bytes) {
    out += breaks_a_line(c) ? escaped(c) : std::string(bytes);
  });
}

std::string shell_quote(std::string_view word, bool always) {
  const auto plain = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '/' || c == '.' ||
           c == '_' || c == '-' || c == '+' || c == ':' || c == '=';
  };
  if (!always && !word.empty() && std::all_of(word.begin(), word.end(), plain)) return std::string(word);
  std::string quoted = "'";
  for (const char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

std::string counted(std::size_t n, std::string_view noun) {
  return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s");
}

CommandWord quoted_name(std::string_view word) {
  CommandWord quoted(word);
  quoted.always_quoted = true;
  return quoted;
}

std::string command_line(const std::vector<CommandWord>& words) {
  std::string line;
  for (const CommandWord& w : words) {
    if (!line.empty()) line += ' ';
    line += shell_quote(w.text, w.always_quoted);
  }
  return line;
}

std::string as_command_line(const std::vector<std::string>& argv) {
  return command_line(std::vector<CommandWord>(argv.begin(), argv.end()));
}

std::string filter_literal(std::string_view name) {
  std::string out;
  const auto byte_escape = [&](std::string_view bytes) {
    for (const char b : bytes) {
      char text[8];
      std::snprintf(text, sizeof text, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(b)));
      out += text;
    }
  };
  for (std::size_t at = 0; at < name.size();) {
    char32_t c = 0;
    const std::size_t length = utf8_sequence(name, at, c);
    const std::string_view bytes = name.substr(at, std::max<std::size_t>(length, 1));
    if (length == 0 || breaks_a_line(c))
      byte_escape(bytes);
    else if (c == '\\' || c == '*' || c == '?' || c == ':' || c == '-')
      out += std::string("\\") + static_cast<char>(c);
    else
      out += bytes;
    at += bytes.size();
  }
  return out;
}

std::string markdown_text(std::string_view text) {
  return rebuilt(text, [](std::string& out, char32_t c, std::string_view bytes) {
    if (c == '\n')
      out += "<br>";
    else if ((is_control_character(c) && c != '\t') || is_bidi_control(c))
      out += escaped(c);
    else if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    // Emphasis, code, links and images, table cells, strikethrough.
    else if (c < 0x80 && std::string_view("\\`*_[]|~").find(static_cast<char>(c)) != std::string_view::npos)
      out.append("\\").append(bytes);
    // "://" and "www." start GitHub's bare links: an escape in each keeps the text and breaks the link.
    else if ((c == '/' && out.ends_with(':')) || (c == '.' && after_www(out)))
      out.append("\\").append(bytes);
    // An address or a mention (it notifies whoever it names): a word joiner after '@' keeps either from forming.
    else if (c == '@')
      out += "@\u2060";
    else
      out += bytes;
  });
}

std::string markdown_code(std::string_view text, MarkdownPlace place) {
  std::string line = terminal_line(text);
  if (place == MarkdownPlace::table) {
    std::string cell;
    for (const char c : line) cell += c == '|' ? std::string("\\|") : std::string(1, c);
    line = cell;
  }
  if (line.empty()) return "` `";  // "``" would be no span at all
  const std::string fence(longest_run(line, '`') + 1, '`');
  // A span's content loses one space at each end where it has one at both; a backtick at an end would join the fence.
  const bool padded = line.front() == '`' || line.back() == '`' || (line.front() == ' ' && line.back() == ' ');
  const std::string pad = padded ? " " : "";
  return fence + pad + line + pad + fence;
}

std::string markdown_code_block(std::string_view text, std::string_view info) {
  const std::string body = terminal_safe(text);
  const std::string fence(std::max<std::size_t>(3, longest_run(body, '`') + 1), '`');
  return fence + std::string(info) + "\n" + body + (body.empty() || body.back() != '\n' ? "\n" : "") + fence + "\n";
}

std::string html_text(std::string_view text) {
  return rebuilt(text, [](std::string& out, char32_t c, std::string_view bytes) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += bytes;
    }
  });
}

std::string xml_text(std::string_view text) {
  return rebuilt(text, [](std::string& out, char32_t c, std::string_view bytes) {
    const bool forbidden = (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0xFFFE || c == 0xFFFF;
    out += forbidden ? escaped(c) : std::string(bytes);
  });
}

std::string json_text(const nlohmann::json& document, int indent) {
  return document.dump(indent, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace);
}

}  // namespace bankgate::gate
