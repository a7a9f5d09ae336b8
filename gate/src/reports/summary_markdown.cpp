// The gate summary in Markdown, as a CI step summary shows it: the headline, the failures first (each with
// measured against baseline and the command that refreshes or records its baseline), then every test.
#include <bankgate/gate/reports/gate_summary.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include <bankgate/gate/text/text.hpp>

#include "summary_text.hpp"

namespace bankgate::gate {
namespace {

namespace fs = std::filesystem;
using summary_text::count;

// A failure's messages, whole up to a limit: GitHub caps a step summary at 1 MiB.
std::string messages_block(const std::string& text) {
  constexpr std::size_t limit = 4000;
  const std::string shown =
      text.size() > limit ? text.substr(0, limit) + "\n... (cut; the whole message is in the JUnit file)" : text;
  return markdown_code_block(shown);
}

// The headline, the counts where anything did not pass, and the run's problems.
void write_overview(std::ostream& out, const GateSummary& s, const std::string& title) {
  out << "## " << markdown_text(title + " " + summary_text::headline(s)) << "\n\n";
  out << markdown_text(summary_text::provenance_line(s.provenance)) << "\n\n";
  if (const std::size_t r = count(s, Outcome::regressed), n = count(s, Outcome::not_measured),
      k = count(s, Outcome::skipped);
      r + n + k > 0)
    out << count(s, Outcome::passed) << " passed, " << r << " regressed, " << n << " could not be measured, " << k
        << " skipped or not run.\n\n";
  for (const std::string& p : s.problems) out << "- **problem:** " << markdown_text(p) << "\n";
  if (!s.problems.empty()) out << "\n";
}

void write_changes(std::ostream& out, const std::vector<MetricChange>& changes) {
  out << "| what | measured | baseline | change | tolerance |\n| --- | ---: | ---: | ---: | --- |\n";
  for (const MetricChange& c : changes)
    out << "| " << markdown_text(c.metric)
        << (c.metric_name.empty() ? "" : "<br>" + markdown_code(c.metric_name, MarkdownPlace::table)) << " | "
        << markdown_text(c.measured) << " | " << markdown_text(c.baseline) << " | "
        << markdown_text(c.change.empty() ? c.verdict : c.change) << " | " << markdown_text(c.tolerance) << " |\n";
  out << "\n";
}

// One test that did not pass: where it ran, what changed, what to run about it, and its messages.
void write_failure(std::ostream& out, const TestResult& t) {
  out << "#### " << markdown_code(t.name) << ": "
      << (t.outcome == Outcome::regressed ? "regressed"
          : t.outcome == Outcome::skipped ? "skipped (a failure in the gate)"
                                          : "could not be measured")
      << "\n\n";
  if (!t.device.empty() || !t.gpu.empty())
    out << "Measured on device " << markdown_text(t.device.empty() ? "?" : t.device)
        << (t.gpu.empty() ? "" : ", " + markdown_text(t.gpu)) << ".\n\n";
  if (!t.changes.empty()) write_changes(out, t.changes);
  if (!t.baseline_file.empty()) out << "Baseline file: " << markdown_code(t.baseline_file) << ". ";
  // Advice only where following it is the remedy: never for a crash, a missing GPU or a wrong output.
  if (summary_text::refresh_fixes(t))
    out << "If the change is intended, refresh this test's baseline on the same GPU and commit it: "
        << markdown_code(t.refresh) << "\n\n";
  else if (summary_text::needs_first_baseline(t))
    out << "Record a baseline on this GPU: " << markdown_code(t.refresh) << "\n\n";
  else
    out << "\n\n";
  if (!t.reason.empty()) {
    if (t.changes.empty())
      out << messages_block(t.reason) << "\n";
    else
      out << "<details><summary>the test's messages</summary>\n\n" << messages_block(t.reason) << "\n</details>\n\n";
  }
}

// A pull request's comment holds 65,536 characters and a CI step summary 1 MiB: the summary keeps within the
// smaller, counting bytes (never fewer than characters), with room for the note of what it left out.
constexpr std::size_t max_markdown_bytes = 60000;

// The summary as it grows: each piece is added whole while it fits, and what did not fit is counted. A step
// summary is also read as plain text in CI logs: no raw control character from a test's name or message reaches it.
struct BoundedMarkdown {
  std::string text;
  std::size_t failures_left_out = 0, rows_left_out = 0;
  bool add(const std::string& piece) {
    const std::string safe = terminal_safe(piece);
    if (text.size() + safe.size() > max_markdown_bytes) return false;
    text += safe;
    return true;
  }
};

// Regressions first, then the tests that could not be measured, then the skipped ones.
void write_failures(BoundedMarkdown& out, const GateSummary& s) {
  std::vector<const TestResult*> failures;
  for (const Outcome o : {Outcome::regressed, Outcome::not_measured, Outcome::skipped})
    for (const TestResult& t : s.tests)
      if (t.outcome == o) failures.push_back(&t);
  if (failures.empty() || !out.add("### Failures\n\n")) {
    out.failures_left_out = failures.size();
    return;
  }
  for (const TestResult* t : failures) {
    std::ostringstream one;
    write_failure(one, *t);
    if (out.failures_left_out > 0 || !out.add(one.str())) ++out.failures_left_out;
  }
}

void write_all_tests(BoundedMarkdown& out, const GateSummary& s) {
  if (s.tests.empty()) return;
  if (!out.add("### All tests\n\n| test | result | device | detail |\n| --- | --- | --- | --- |\n")) {
    out.rows_left_out = s.tests.size();
    return;
  }
  for (const TestResult& t : s.tests) {
    const std::string row = "| " + markdown_code(t.name, MarkdownPlace::table) + " | " + to_string(t.outcome) + " | " +
                            markdown_text(t.device.empty() ? "-" : t.device) + " | " +
                            markdown_text(summary_text::detail(t)) + " |\n";
    if (out.rows_left_out > 0 || !out.add(row)) ++out.rows_left_out;
  }
  out.add("\n");
}

std::string not_regular(const fs::path& file) {
  return file.string() +
         ": is not a regular file (a FIFO, socket, device or folder is in its place); the markdown "
         "summary is only appended to a regular file, such as $GITHUB_STEP_SUMMARY";
}

}  // namespace

std::string render_markdown(const GateSummary& s, const std::string& title) {
  std::ostringstream overview;
  write_overview(overview, s, title);
  BoundedMarkdown out;
  out.text = terminal_safe(overview.str());
  write_failures(out, s);
  write_all_tests(out, s);
  if (out.failures_left_out + out.rows_left_out > 0)
    out.text += "**Cut to fit a pull request comment (65,536 characters):** " + std::to_string(out.failures_left_out) +
                " failures and " + std::to_string(out.rows_left_out) +
                " rows of the table of all tests are not shown here; every test's verdict is in the gate's "
                "`summary.json` and `report.html` beside this summary.\n";
  return out.text;
}

void append_markdown(const fs::path& file, const std::string& markdown) {
  // O_NONBLOCK: opening a FIFO without a reader fails at once (ENXIO) instead of waiting for one; any other file
  // that is not regular is refused before a byte is written to it.
  const int fd = ::open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0666);
  if (fd < 0) {
    const int error = errno;
    struct stat info {};
    if (::stat(file.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) throw std::runtime_error(not_regular(file));
    throw std::runtime_error(file.string() + ": cannot be opened for appending: " + std::strerror(error));
  }
  std::string problem;
  struct stat info {};
  if (::fstat(fd, &info) != 0)
    problem = file.string() + ": cannot be examined: " + std::strerror(errno);
  else if (!S_ISREG(info.st_mode))
    problem = not_regular(file);
  for (std::size_t done = 0; problem.empty() && done < markdown.size();) {
    const ssize_t n = ::write(fd, markdown.data() + done, markdown.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      problem = file.string() + ": cannot be appended to: " + std::strerror(errno);
    else
      done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (!problem.empty()) throw std::runtime_error(problem);
}

}  // namespace bankgate::gate
