#include <bankgate/gate/text.hpp>

#include <cstdio>

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

// C0 controls but newline and tab, DEL, and the C1 controls (U+0080 to U+009F; U+009B is a one-character CSI).
bool is_terminal_control(char32_t c) { return (c < 0x20 && c != '\n' && c != '\t') || (c >= 0x7F && c <= 0x9F); }

// `text` rebuilt code point by code point: `keep` appends each well-formed one (given its bytes); a byte that
// fits no sequence becomes U+FFFD, one per byte: simple, and never hides a valid sequence after it.
template <class Keep>
std::string rebuilt(std::string_view text, Keep keep) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    char32_t c = 0;
    const std::size_t length = utf8_sequence(text, at, c);
    if (length == 0) {
      out += replacement_character;
      ++at;
    } else {
      keep(out, c, text.substr(at, length));
      at += length;
    }
  }
  return out;
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  return rebuilt(text, [](std::string& out, char32_t, std::string_view bytes) { out += bytes; });
}

std::string terminal_safe(std::string_view text) {
  return rebuilt(text, [](std::string& out, char32_t c, std::string_view bytes) {
    if (!is_terminal_control(c)) {
      out += bytes;
      return;
    }
    char escaped[8];
    std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned>(c));
    out += escaped;
  });
}

}  // namespace bankgate::gate
