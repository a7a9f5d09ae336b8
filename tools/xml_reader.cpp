#include "xml_reader.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <fstream>
#include <sstream>

namespace bankgate::tools {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_name_char(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) || c == '_' || c == ':' || c == '-' || c == '.' || u >= 0x80;
}

void append_utf8(std::string& out, std::uint32_t code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

class Parser {
 public:
  Parser(std::string_view text, const std::string& origin) : text_(text), origin_(origin) {}

  XmlElement document() {
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a UTF-8 byte order mark
    skip_misc();
    if (!at("<")) fail("expected the root element");
    XmlElement root = element();
    skip_misc();
    if (pos_ != text_.size()) fail("unexpected content after the root element");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    const auto line = 1 + std::count(text_.begin(), text_.begin() + static_cast<std::ptrdiff_t>(std::min(pos_, text_.size())), '\n');
    throw XmlError(origin_ + ":" + std::to_string(line) + ": not readable XML: " + what);
  }
  bool at(std::string_view s) const { return text_.substr(pos_, s.size()) == s; }
  void expect(std::string_view s) {
    if (!at(s)) fail("expected '" + std::string(s) + "'");
    pos_ += s.size();
  }
  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }
  void skip_past(std::string_view end, const char* what) {
    const auto found = text_.find(end, pos_);
    if (found == std::string_view::npos) fail(std::string("unterminated ") + what);
    pos_ = found + end.size();
  }
  // Whitespace, comments, processing instructions (the prolog) and a DOCTYPE, outside the root element.
  void skip_misc() {
    for (;;) {
      skip_space();
      if (at("<?")) skip_past("?>", "processing instruction");
      else if (at("<!--")) skip_past("-->", "comment");
      else if (at("<!DOCTYPE")) skip_past(">", "DOCTYPE");
      else return;
    }
  }
  std::string name() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
    if (pos_ == start) fail("expected a name");
    return std::string(text_.substr(start, pos_ - start));
  }
  // Character data up to `stop`, with entities decoded; literal whitespace in attribute values becomes a
  // space, as XML's attribute normalisation says (encoded newlines, &#x0A;, stay newlines).
  std::string decoded(char stop, bool attribute) {
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != stop) {
      const char c = text_[pos_];
      if (c == '&') {
        out += entity();
      } else {
        if (attribute && c == '<') fail("'<' inside an attribute value");
        out += attribute && is_space(c) ? ' ' : c;
        ++pos_;
      }
    }
    return out;
  }
  std::string entity() {
    const std::size_t end = text_.find(';', pos_);
    if (end == std::string_view::npos || end - pos_ > 12) fail("unterminated entity");
    const std::string_view body = text_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    if (body == "lt") return "<";
    if (body == "gt") return ">";
    if (body == "amp") return "&";
    if (body == "quot") return "\"";
    if (body == "apos") return "'";
    if (body.size() > 1 && body[0] == '#') {
      const bool hex = body[1] == 'x' || body[1] == 'X';
      const std::string digits(body.substr(hex ? 2 : 1));
      const bool valid = !digits.empty() && std::all_of(digits.begin(), digits.end(), [&](unsigned char d) {
        return hex ? std::isxdigit(d) != 0 : std::isdigit(d) != 0;
      });
      if (valid) {
        const unsigned long code = std::stoul(digits, nullptr, hex ? 16 : 10);
        if (code > 0 && code <= 0x10FFFF) {
          std::string out;
          append_utf8(out, static_cast<std::uint32_t>(code));
          return out;
        }
      }
    }
    fail("unknown entity '&" + std::string(body) + ";'");
  }

  XmlElement element() {
    expect("<");
    XmlElement e;
    e.name = name();
    for (;;) {
      skip_space();
      if (at("/>")) {
        pos_ += 2;
        return e;
      }
      if (at(">")) {
        ++pos_;
        break;
      }
      std::string key = name();
      skip_space();
      expect("=");
      skip_space();
      if (pos_ >= text_.size() || (text_[pos_] != '"' && text_[pos_] != '\'')) fail("expected a quoted value for '" + key + "'");
      const char quote = text_[pos_++];
      std::string value = decoded(quote, true);
      expect(std::string_view(&quote, 1));
      e.attributes.emplace_back(std::move(key), std::move(value));
    }
    // Content: child elements, character data, CDATA and comments, up to the matching end tag.
    for (;;) {
      if (pos_ >= text_.size()) fail("element <" + e.name + "> is not closed");
      if (at("</")) {
        pos_ += 2;
        const std::string closing = name();
        if (closing != e.name) fail("</" + closing + "> closes <" + e.name + ">");
        skip_space();
        expect(">");
        return e;
      }
      if (at("<![CDATA[")) {
        pos_ += 9;
        const auto end = text_.find("]]>", pos_);
        if (end == std::string_view::npos) fail("unterminated CDATA section");
        e.text += text_.substr(pos_, end - pos_);
        pos_ = end + 3;
      } else if (at("<!--")) {
        skip_past("-->", "comment");
      } else if (at("<?")) {
        skip_past("?>", "processing instruction");
      } else if (at("<")) {
        e.children.push_back(element());
      } else {
        e.text += decoded('<', false);
      }
    }
  }

  std::string_view text_;
  const std::string& origin_;
  std::size_t pos_ = 0;
};

void collect(const XmlElement& e, std::string_view name, std::vector<const XmlElement*>& out) {
  for (const XmlElement& c : e.children) {
    if (c.name == name) out.push_back(&c);
    collect(c, name, out);
  }
}

}  // namespace

std::string XmlElement::attribute(std::string_view key, const std::string& fallback) const {
  for (const auto& [k, v] : attributes)
    if (k == key) return v;
  return fallback;
}

bool XmlElement::has_attribute(std::string_view key) const {
  return std::any_of(attributes.begin(), attributes.end(), [&](const auto& a) { return a.first == key; });
}

const XmlElement* XmlElement::child(std::string_view child_name) const {
  for (const XmlElement& c : children)
    if (c.name == child_name) return &c;
  return nullptr;
}

std::vector<const XmlElement*> XmlElement::descendants(std::string_view element_name) const {
  std::vector<const XmlElement*> out;
  collect(*this, element_name, out);
  return out;
}

XmlElement parse_xml(std::string_view text, const std::string& origin) { return Parser(text, origin).document(); }

XmlElement read_xml_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw XmlError("cannot read " + path.string());
  std::ostringstream content;
  content << in.rdbuf();
  return parse_xml(content.str(), path.string());
}

}  // namespace bankgate::tools
