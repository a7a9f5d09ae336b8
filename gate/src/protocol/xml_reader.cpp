#include <bankgate/gate/protocol/xml_reader.hpp>

#include <pugixml.hpp>

#include <bankgate/gate/store/input_file.hpp>
#include <bankgate/gate/text/text.hpp>

namespace bankgate::gate {
namespace {

// Reports nest three or four levels; anything far deeper is not a report, and copying it recursively could
// exhaust the stack.
constexpr int max_depth = 64;

void copy_element(const pugi::xml_node& from, XmlElement& to, int depth, const std::string& origin) {
  if (depth > max_depth)
    throw XmlError(origin + ": elements nested deeper than " + std::to_string(max_depth) +
                   " levels; not a test report");
  // pugixml passes bytes through unchecked (and a reference such as &#xD800; decodes to a surrogate): every
  // string is made UTF-8 here, where it enters, so that the JSON, JUnit and HTML writers can take any of it.
  to.name = valid_utf8(from.name());
  for (const pugi::xml_attribute& a : from.attributes())
    to.attributes.emplace_back(valid_utf8(a.name()), valid_utf8(a.value()));
  for (const pugi::xml_node& child : from.children()) {
    if (child.type() == pugi::node_element) {
      to.children.emplace_back();
      copy_element(child, to.children.back(), depth + 1, origin);
    } else if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
      to.text += valid_utf8(child.value());
    }
  }
}

// pugixml reports a byte offset; people want a line.
std::size_t line_of(std::string_view text, std::ptrdiff_t offset) {
  std::size_t line = 1;
  for (std::ptrdiff_t i = 0; i < offset && static_cast<std::size_t>(i) < text.size(); ++i)
    if (text[static_cast<std::size_t>(i)] == '\n') ++line;
  return line;
}

}  // namespace

std::string XmlElement::attribute(std::string_view key, const std::string& fallback) const {
  for (const auto& [attribute_name, value] : attributes)
    if (attribute_name == key) return value;
  return fallback;
}

bool XmlElement::has_attribute(std::string_view key) const {
  for (const auto& [attribute_name, value] : attributes)
    if (attribute_name == key) return true;
  return false;
}

const XmlElement* XmlElement::child(std::string_view child_name) const {
  for (const XmlElement& c : children)
    if (c.name == child_name) return &c;
  return nullptr;
}

std::vector<const XmlElement*> XmlElement::descendants(std::string_view element_name) const {
  std::vector<const XmlElement*> found;
  std::vector<const XmlElement*> stack;
  for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(&*it);
  while (!stack.empty()) {
    const XmlElement* e = stack.back();
    stack.pop_back();
    if (e->name == element_name) found.push_back(e);
    for (auto it = e->children.rbegin(); it != e->children.rend(); ++it) stack.push_back(&*it);
  }
  return found;
}

XmlElement parse_xml(std::string_view text, const std::string& origin) {
  pugi::xml_document doc;
  // Entities beyond the predefined and numeric ones are not expanded (no DTD processing).
  const pugi::xml_parse_result parsed = doc.load_buffer(
      text.data(), text.size(), pugi::parse_default | pugi::parse_ws_pcdata_single, pugi::encoding_utf8);
  if (!parsed)
    throw XmlError(origin + ":" + std::to_string(line_of(text, parsed.offset)) + ": not well-formed XML (" +
                   parsed.description() + ")");
  const pugi::xml_node root = doc.document_element();
  if (!root) throw XmlError(origin + ": holds no XML element");
  XmlElement element;
  copy_element(root, element, 0, origin);
  return element;
}

XmlElement read_xml_file(const std::filesystem::path& path) {
  // Reports come from the run of a pull request's tests: a FIFO or device in a report's place is refused, not
  // waited on or read without end. Callers treat an unreadable report like a malformed one.
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const InputFileError& e) {
    throw XmlError(e.what());
  }
  return parse_xml(text, path.string());
}

}  // namespace bankgate::gate
