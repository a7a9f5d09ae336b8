// The HTML report's layout (verdict, provenance and overview first; each failure once, as tables; the console
// text folded), its per-line table for lines only the baseline has, its source links and their refusals, and
// the duration plot's axis.

#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <bankgate/gate/reports/duration_axis.hpp>
#include <bankgate/gate/reports/html_report.hpp>
#include <bankgate/gate/protocol/settings.hpp>
#include <bankgate/gate/text/source_url.hpp>

#include "planted_report.hpp"

namespace {

using namespace bankgate::gate;

constexpr const char* github = "https://github.com/org/repo/blob/{commit}/{path}#L{line}";

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

// The text of the table row that begins with the cell naming `where`.
std::string row_of(const std::string& html, const std::string& where) {
  const std::size_t at = html.find(">" + where + "<");
  if (at == std::string::npos) return "";
  const std::size_t start = html.rfind("<tr", at);
  return html.substr(start, html.find("</tr>", at) - start);
}

TEST(HtmlReport, VerdictProvenanceAndOverviewComeBeforeAnyTest) {
  const std::string html = render_html(planted::summary(), {BANKGATE_SOURCE_DIR});
  const auto at = [&](const std::string& part) { return html.find(part); };
  ASSERT_NE(at("<h1>bankgate gate: <span class='verdict regressed'>regressed</span></h1>"), std::string::npos);
  EXPECT_LT(at("<h1>"), at("<table class=provenance>"));
  EXPECT_LT(at("<table class=provenance>"), at("<h2>Overview</h2>"));
  EXPECT_LT(at("<h2>Overview</h2>"), at("<h2>Failures</h2>"));
  EXPECT_LT(at("<h2>Failures</h2>"), at("<h2>Passed</h2>"));
  const std::string provenance =
      html.substr(at("<table class=provenance>"), at("<h2>Overview</h2>") - at("<table class=provenance>"));
  for (const std::string& fact :
       {"bankgate " + tool_version(), std::string("2025-06-02T09:14:03Z"), std::string("gpu-runner-7"),
        std::string(planted::measured_commit), std::string("with uncommitted changes"),
        std::string("2025-06-02T09:12:41Z"), std::string("NVIDIA H200 (driver 580.159.04, CUDA 13.0)"),
        std::string(planted::baseline_commit)})
    EXPECT_NE(provenance.find(fact), std::string::npos) << fact << " in " << provenance;
}

TEST(HtmlReport, TheOverviewCountsOutcomesAndLinksEachTestThatDidNotPass) {
  const std::string html = render_html(planted::summary(), {});
  EXPECT_NE(html.find("<td class=passed-count>1</td><td class=regressed-count>2</td><td class=not-measured-count>1</td>"
                      "<td class=skipped-count>1</td>"),
            std::string::npos);
  const std::string overview = html.substr(html.find("<table class=overview>"),
                                           html.find("<h2>Failures</h2>") - html.find("<table class=overview>"));
  EXPECT_EQ(occurrences(overview, "<a href='#test-"), 4u) << "every test that did not pass, no passed one";
  EXPECT_EQ(overview.find("SwizzledSquare<"), std::string::npos);
  EXPECT_LT(overview.find("PaddedSquare"), overview.find("NaiveSquare")) << "regressions first";
  EXPECT_NE(overview.find("shared load transactions: 65536 -&gt; 2097152"), std::string::npos)
      << "a regression's first change";
  EXPECT_NE(overview.find("GoogleTest wrote no report"), std::string::npos) << "the first line of a crash's reason";
  for (const char* id : {"test-Transpose.PaddedSquare", "test-Transpose.NaiveSquare", "test-Transpose.TiledSquare"}) {
    EXPECT_NE(html.find("href='#" + std::string(id) + "'"), std::string::npos) << id;
    EXPECT_EQ(occurrences(html, "id='" + std::string(id) + "'"), 1u) << id << ": its section, once";
  }
}

TEST(HtmlReport, EachFailureIsShownOnceAsATableWithItsConsoleTextFolded) {
  const std::string html = render_html(planted::summary(), {BANKGATE_SOURCE_DIR});
  const std::string reason = planted::regressed_transpose().reason;
  const std::string console_line =
      "[bankgate] Transpose.PaddedSquare (kernel transposePadded): shared load transactions CHANGED";
  EXPECT_EQ(occurrences(html, console_line), 1u) << "the console text once";
  const std::size_t section = html.find("id='test-Transpose.PaddedSquare'");
  const std::size_t console = html.find(console_line);
  const std::size_t folded = html.rfind("<details><summary>the test's console output</summary><pre>", console);
  ASSERT_NE(folded, std::string::npos) << "the console text is folded away";
  EXPECT_GT(folded, section);
  const std::size_t table = html.find(
      "<table class=changes><tr><th class=l>metric</th><th>baseline</th><th>measured</th>"
      "<th>change</th><th class=l>tolerance</th><th class=l>verdict</th></tr>",
      section);
  const std::size_t lines = html.find("<h4>Source lines</h4>", section);
  const std::size_t plot = html.find("<h4>Duration</h4>", section);
  EXPECT_LT(section, table);
  EXPECT_LT(table, lines) << "the table, then the lines";
  EXPECT_LT(lines, plot) << "then the durations";
  EXPECT_LT(plot, folded) << "the console text last";
  EXPECT_NE(html.find("<td>65536</td><td>2097152</td><td>+2031616 (+3100.0%)</td><td class=\"l "
                      "tolerance\">exact</td><td class=l>CHANGED</td>",
                      section),
            std::string::npos);
}

TEST(HtmlReport, RefreshAdviceOnlyWhereARefreshIsTheRemedy) {
  const std::string html = render_html(planted::summary(), {});
  const auto section = [&](const std::string& name) {
    const std::size_t start = html.find("id='test-Transpose." + name + "'");
    return html.substr(start, html.find("</section>", start) - start);
  };
  EXPECT_NE(section("PaddedSquare").find("If intended, refresh: <code>bankgate refresh"), std::string::npos)
      << "a changed counter";
  EXPECT_EQ(section("SwizzledNonSquare").find("refresh"), std::string::npos) << "a wrong output";
  EXPECT_EQ(section("NaiveSquare").find("refresh"), std::string::npos) << "a crash";
  EXPECT_NE(section("NaiveSquare").find("<p class=why>GoogleTest wrote no report"), std::string::npos);
  EXPECT_EQ(section("TiledSquare").find("refresh"), std::string::npos) << "a skipped test";
}

TEST(HtmlReport, ALineOnlyTheBaselineHasShowsNoneOfTodaysText) {
  const std::string html = render_html(planted::summary(), {BANKGATE_SOURCE_DIR});
  const std::string gone = row_of(html, "kernels/transpose.cu:60");
  ASSERT_FALSE(gone.empty());
  EXPECT_NE(gone.find("<td class='src muted'>(only in the baseline)</td>"), std::string::npos) << gone;
  EXPECT_EQ(gone.find('}'), std::string::npos) << "line 60 of today's transpose.cu is a '}': " << gone;
  EXPECT_NE(gone.find("1024 &rarr; gone"), std::string::npos);
  const std::string kept = row_of(html, "kernels/transpose.cu:52");
  EXPECT_NE(kept.find("float value = static_cast&lt;volatile float&amp;&gt;(tile[tx][Layout::column(tx, ty + j)]);"),
            std::string::npos)
      << "a line the run has shows its text: " << kept;
}

TEST(HtmlReport, SourceLinesLinkToTheMeasuredCommitAndGoneLinesToTheBaselines) {
  const std::string html = render_html(planted::summary(), {BANKGATE_SOURCE_DIR, "bankgate gate", github});
  EXPECT_NE(html.find("<a href='https://github.com/org/repo/blob/" + std::string(planted::measured_commit) +
                      "/kernels/transpose.cu#L52'>kernels/transpose.cu:52</a>"),
            std::string::npos);
  EXPECT_NE(html.find("<a href='https://github.com/org/repo/blob/" + std::string(planted::baseline_commit) +
                      "/kernels/transpose.cu#L60'>kernels/transpose.cu:60</a>"),
            std::string::npos)
      << "a line only the baseline has, at the baseline's commit";
  EXPECT_EQ(html.find("<script"), std::string::npos);

  GateSummary unknown = planted::summary();
  unknown.provenance.commit.clear();
  unknown.provenance.baseline_commits = {"unknown"};
  EXPECT_EQ(render_html(unknown, {BANKGATE_SOURCE_DIR, "bankgate gate", github}).find("<a href='https"),
            std::string::npos)
      << "no link to a guessed commit";
}

TEST(HtmlReport, AnUnusableTemplateIsRefusedNotRendered) {
  EXPECT_THROW(render_html(planted::summary(), {"", "bankgate gate", "javascript:alert(1)//{path}"}), SourceUrlError);
}

TEST(SourceUrl, FilledValuesArePercentEncoded) {
  const SourceUrl url(github);
  EXPECT_EQ(url.link("abc123", "kernels/my file'\".cu", 7),
            "https://github.com/org/repo/blob/abc123/kernels/my%20file%27%22.cu#L7");
  EXPECT_EQ(url.link("a/b?c", "k.cu", 1), "https://github.com/org/repo/blob/a%2Fb%3Fc/k.cu#L1");
  EXPECT_EQ(url.link("abc123", "../etc/passwd", 1), "") << "a path leading out of the project";
  EXPECT_EQ(url.link("abc123", "/etc/passwd", 1), "");
  EXPECT_EQ(url.link("abc123", "k.cu", 0), "") << "an unknown line";
  EXPECT_EQ(url.link("", "k.cu", 3), "") << "a template that needs a commit, without one";
  EXPECT_EQ(SourceUrl("http://git.example/tree/main/{path}").link("", "k.cu", 3), "http://git.example/tree/main/k.cu");
}

// The trend pages link each run's commit to the forge's page of that commit, made from the source link template.
TEST(SourceUrl, ACommitsPageIsMadeFromTheForgesFileAddresses) {
  EXPECT_EQ(SourceUrl(github).commit_template(), "https://github.com/org/repo/commit/{commit}");
  EXPECT_EQ(SourceUrl("https://gitlab.example/g/p/-/blob/{commit}/{path}#L{line}").commit_template(),
            "https://gitlab.example/g/p/-/commit/{commit}");
  EXPECT_EQ(SourceUrl("https://gitea.example/o/r/src/commit/{commit}/{path}#L{line}").commit_template(),
            "https://gitea.example/o/r/commit/{commit}");
  EXPECT_EQ(SourceUrl("https://x.example/view?c={commit}&f={path}").commit_template(), "") << "an unknown form";
  EXPECT_EQ(SourceUrl("http://git.example/tree/main/{path}").commit_template(), "") << "no commit in it";
  EXPECT_EQ(SourceUrl().commit_template(), "");
  EXPECT_EQ(url_encoded("a/b c?#&"), "a%2Fb%20c%3F%23%26");
}

TEST(SourceUrl, OnlyPlainHttpAddressesAreAccepted) {
  EXPECT_EQ(source_url_problem(github), "");
  EXPECT_EQ(source_url_problem("HTTPS://gitlab.example/org/repo/-/blob/{commit}/{path}#L{line}"), "");
  const std::vector<std::pair<std::string, std::string>> refused{
      {"", "is empty"},
      {"javascript:alert(1)//{path}", "is not an http(s) address"},
      {"data:text/html,{path}", "is not an http(s) address"},
      {"file:///home/{path}", "is not an http(s) address"},
      {" https://x.example/{path}", "is not an http(s) address"},
      {"https://x.example/{path}' onmouseover='alert(1)", "has the character '"},
      {"https://x.example/{path}\"><script>", "has the character \""},
      {"https://x.example/a b/{path}", "has a space"},
      {"https://x.example/{path}#L{lines}", "has the unknown placeholder {lines}"},
      {"https://x.example/{path", "has the unknown placeholder {path"},
      {"https://x.example/}{path}", "has a '}' without its '{'"},
      {"https://{commit}.example/{path}", "names no fixed host"},
      {"https:///{path}", "names no fixed host"},
      {"https://x.example/blob/{commit}", "has no {path}"},
  };
  for (const auto& [text, why] : refused) {
    const std::string problem = source_url_problem(text);
    EXPECT_NE(problem.find(why), std::string::npos) << "'" << text << "': " << problem;
    EXPECT_THROW(SourceUrl{text}, SourceUrlError) << text;
  }
}

TEST(SourceUrl, TheSettingNamesItsVariable) {
  const auto with = [](std::optional<std::string> value) {
    return [value](const std::string& name) { return name == "BANKGATE_SOURCE_URL" ? value : std::nullopt; };
  };
  EXPECT_EQ(source_url_template(with(std::nullopt)), std::nullopt);
  EXPECT_EQ(source_url_template(with("")), std::nullopt);
  EXPECT_EQ(source_url_template(with(github)), github);
  try {
    source_url_template(with("javascript:alert(1)"));
    FAIL() << "accepted";
  } catch (const SettingsError& e) {
    EXPECT_NE(std::string(e.what()).find("BANKGATE_SOURCE_URL: 'javascript:alert(1)' is not an http(s) address"),
              std::string::npos)
        << e.what();
  }
}

// The planted regression: 1 us against 3 us, each +-1%, each with one outlier at 50 us; the baseline as it
// keeps its durations, as percentiles in 5% steps.
TEST(DurationAxis, DistributionsFarApartGetASpanEach) {
  const std::vector<double> run = planted::durations(3000, 200);
  const std::vector<double> base = summarize_durations(planted::durations(1000, 200)).quantiles_ns;
  const DurationAxis axis = duration_axis(run, base);
  ASSERT_TRUE(axis.broken());
  EXPECT_LE(axis.spans[0].low, 991.0);
  EXPECT_GE(axis.spans[0].high, 1009.0);
  EXPECT_LT(axis.spans[0].high, 1100.0) << "the lower span is the baseline's alone, without its slowest sample";
  EXPECT_LE(axis.spans[1].low, 2970.0 * 1.0002);
  EXPECT_GE(axis.spans[1].high, 3030.0 * 0.9998);
  EXPECT_LT(axis.spans[1].high, 3300.0) << "the outlier at 50 us does not stretch the axis";
  // Each distribution's 1st to 99th percentile takes over a third of the plot's half; linear over 990 to
  // 50000 ns, each took 0.04% of it.
  EXPECT_GT(axis.position(1009) - axis.position(991), 0.46 / 3);
  EXPECT_GT(axis.position(3029.4) - axis.position(2970.6), 0.46 / 3);
  EXPECT_LT(axis.position(1010), 0.5);
  EXPECT_GT(axis.position(2970), 0.5);
  EXPECT_EQ(axis.position(50000), 1.0) << "an outlier is drawn at the end";
  EXPECT_EQ(axis.position(0), 0.0);
}

TEST(DurationAxis, OverlappingDistributionsShareOneSpanWithoutTheirOutliers) {
  const DurationAxis axis = duration_axis(planted::durations(1010, 200), planted::durations(1000, 200));
  ASSERT_FALSE(axis.broken());
  EXPECT_LE(axis.spans[0].low, 990.2);
  EXPECT_GE(axis.spans[0].high, 1019.9);
  EXPECT_LT(axis.spans[0].high, 1030.0);
  EXPECT_GT(axis.position(1009.8) - axis.position(990.2), 0.5) << "the baseline fills over half the plot";
}

TEST(DurationAxis, PositionsRiseThroughTheBreakAndTicksAreRoundAndInside) {
  const DurationAxis axis = duration_axis(planted::durations(3000, 200), planted::durations(1000, 200));
  double last = -1;
  for (double ns = 900; ns < 3200; ns += 5) {
    EXPECT_GE(axis.position(ns), last) << ns;
    last = axis.position(ns);
  }
  const std::vector<double> ticks = axis.ticks();
  ASSERT_GE(ticks.size(), 4u);
  for (const double tick : ticks) {
    const bool inside = (tick >= axis.spans[0].low && tick <= axis.spans[0].high) ||
                        (tick >= axis.spans[1].low && tick <= axis.spans[1].high);
    EXPECT_TRUE(inside) << tick;
    EXPECT_DOUBLE_EQ(tick, std::round(tick / 5) * 5) << "a round value: " << tick;
  }
}

TEST(DurationAxis, OneSideAloneOrEqualSamplesStillGetASpan) {
  const DurationAxis run_only = duration_axis({2000, 2001, 2002}, {});
  ASSERT_EQ(run_only.spans.size(), 1u);
  EXPECT_LT(run_only.spans[0].low, 2000);
  EXPECT_GT(run_only.spans[0].high, 2002);
  const DurationAxis equal = duration_axis({500, 500, 500}, {500});
  ASSERT_EQ(equal.spans.size(), 1u);
  EXPECT_LT(equal.spans[0].low, 500);
  EXPECT_GT(equal.spans[0].high, 500);
  EXPECT_DOUBLE_EQ(percentile_of_sorted({1, 2, 3, 4, 5}, 0.5), 3);
  EXPECT_DOUBLE_EQ(percentile_of_sorted({10, 20}, 0.25), 12.5);
}

}  // namespace
