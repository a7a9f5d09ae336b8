#pragma once
// Links from the HTML report to the project's source, made from a template the user gives (`--source-url`, or
// BANKGATE_SOURCE_URL), such as
//   https://github.com/org/repo/blob/{commit}/{path}#L{line}
// {commit} is the measured commit, {path} the file relative to the project, {line} its line. The report is
// opened by people who did not make it, so a template is accepted only as a plain http(s) address: no other
// scheme (javascript:, data:, file:), no quote, space, angle bracket or backslash, no placeholder before the
// path; the values put into it are percent-encoded, so a file name cannot change what the link is.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace bankgate::gate {

class SourceUrlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `value` percent-encoded for a part of an address: only unreserved characters (and '/', where `keep_slash`) stay.
std::string url_encoded(std::string_view value, bool keep_slash = false);

// Why `text` is no usable template, in words that say what is accepted; empty when it is one.
std::string source_url_problem(const std::string& text);

class SourceUrl {
 public:
  SourceUrl() = default;  // no template: no links
  // Throws SourceUrlError with source_url_problem()'s words.
  explicit SourceUrl(std::string text);

  bool empty() const { return template_.empty(); }
  bool needs_commit() const;
  // The address of `path`'s line `line` at `commit`. Empty where there is no template, where the template needs
  // a commit and `commit` is empty, or where `path` is no plain relative path (absolute, or with a ".." step).
  std::string link(const std::string& commit, const std::string& path, std::uint32_t line) const;
  // A template of the address of a commit's own page, "{commit}" where the commit goes, made from this one where its
  // part before {commit} ends as the file addresses of GitHub and GitLab (".../blob/{commit}") or Gitea
  // (".../src/commit/{commit}") do: ".../commit/{commit}" there. Empty where the template is none of those forms.
  std::string commit_template() const;

 private:
  std::string template_;
};

}  // namespace bankgate::gate
