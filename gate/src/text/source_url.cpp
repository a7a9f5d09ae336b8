#include <bankgate/gate/text/source_url.hpp>

#include <array>
#include <cctype>
#include <string_view>

namespace bankgate::gate {
namespace {

constexpr std::string_view example = "https://github.com/ORG/REPO/blob/{commit}/{path}#L{line}";
constexpr std::array<std::string_view, 3> placeholders{"{commit}", "{path}", "{line}"};
// Characters an address in an HTML attribute or a terminal must not carry, even escaped.
constexpr std::string_view refused_characters = "\"'<>\\`^|";

std::string lower(std::string_view text) {
  std::string out;
  for (const char c : text) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// What a template's characters and placeholders break, or "".
std::string character_problem(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c <= 0x20 || c >= 0x7f)
      return "has a space, control character or non-ASCII byte at position " + std::to_string(i + 1);
    if (refused_characters.find(text[i]) != std::string_view::npos)
      return std::string("has the character ") + text[i] + ", which an address must not carry";
    if (text[i] == '}') return "has a '}' without its '{'";
    if (text[i] != '{') continue;
    const std::size_t end = text.find('}', i);
    const std::string_view name = text.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i + 1);
    bool known = false;
    for (const std::string_view p : placeholders) known |= name == p;
    if (!known)
      return "has the unknown placeholder " + std::string(name) + " (the placeholders are {commit}, {path} and {line})";
    i = end;
  }
  return "";
}

// Appends url_encoded(value, keep_slash) to `out`.
void append_encoded(std::string& out, std::string_view value, bool keep_slash) {
  constexpr char hex[] = "0123456789ABCDEF";
  for (const char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~' || (keep_slash && c == '/')) {
      out += c;
    } else {
      out += '%';
      out += hex[u >> 4];
      out += hex[u & 0xf];
    }
  }
}

// A path relative to the project that stays inside it: not absolute, no ".." step.
bool plain_relative(std::string_view path) {
  if (path.empty() || path.front() == '/') return false;
  for (std::size_t start = 0; start <= path.size();) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    if (path.substr(start, end - start) == "..") return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

std::string url_encoded(std::string_view value, bool keep_slash) {
  std::string out;
  append_encoded(out, value, keep_slash);
  return out;
}

std::string source_url_problem(const std::string& text) {
  const std::string quoted = "'" + text + "' ";
  if (text.empty()) return "the source link template is empty; give an address such as " + std::string(example);
  const std::string head = lower(text.substr(0, 8));
  const std::size_t scheme = head.starts_with("https://") ? 8 : head.starts_with("http://") ? 7 : 0;
  if (scheme == 0)
    return quoted +
           "is not an http(s) address: a source link template begins with https:// or http:// (no other scheme, "
           "such as javascript: or file:), e.g. " +
           std::string(example);
  if (const std::string problem = character_problem(text); !problem.empty()) return quoted + problem;
  const std::string host = text.substr(scheme, text.find_first_of("/?#", scheme) - scheme);
  if (host.empty() || host.find('{') != std::string::npos)
    return quoted + "names no fixed host after " + text.substr(0, scheme) +
           " (placeholders belong in the path), e.g. " + std::string(example);
  if (text.find("{path}") == std::string::npos)
    return quoted + "has no {path}: every source line needs its own address, e.g. " + std::string(example);
  return "";
}

SourceUrl::SourceUrl(std::string text) : template_(std::move(text)) {
  if (const std::string problem = source_url_problem(template_); !problem.empty()) throw SourceUrlError(problem);
}

std::string SourceUrl::commit_template() const {
  const std::size_t at = template_.find("{commit}");
  if (at == std::string::npos) return "";
  const std::string_view before = std::string_view(template_).substr(0, at);
  // The forge's address of the repository: what comes before the file view's "blob/" (GitLab's "-/blob/" keeps its
  // "-/", which its commit pages have too) or Gitea's "src/commit/".
  for (const std::string_view view : {std::string_view("/src/commit/"), std::string_view("/blob/")})
    if (before.ends_with(view)) return std::string(before.substr(0, before.size() - view.size())) + "/commit/{commit}";
  return "";
}

bool SourceUrl::needs_commit() const { return template_.find("{commit}") != std::string::npos; }

std::string SourceUrl::link(const std::string& commit, const std::string& path, std::uint32_t line) const {
  if (empty() || line == 0 || !plain_relative(path) || (needs_commit() && commit.empty())) return "";
  std::string out;
  for (std::size_t i = 0; i < template_.size();) {
    const std::string_view rest = std::string_view(template_).substr(i);
    if (rest.starts_with("{commit}")) {
      append_encoded(out, commit, false);
      i += 8;
    } else if (rest.starts_with("{path}")) {
      append_encoded(out, path, true);
      i += 6;
    } else if (rest.starts_with("{line}")) {
      out += std::to_string(line);
      i += 6;
    } else {
      out += template_[i++];
    }
  }
  return out;
}

}  // namespace bankgate::gate
