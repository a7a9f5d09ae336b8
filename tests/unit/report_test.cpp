// What a person reads when a gate fails: the failure message, numbers, changes and tables.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <bankgate/gate/rules/comparison.hpp>
#include <bankgate/gate/reports/report.hpp>
#include <bankgate/gate/reports/table.hpp>

namespace {

using namespace bankgate::gate;

constexpr const char* load_wavefronts = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr const char* load_tpr = "shared_load_transactions_per_request";
constexpr const char* store_tpr = "shared_store_transactions_per_request";

::testing::AssertionResult mentions(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << text << "\" does not mention \"" << part << "\"";
}

// A project built in /home/user/project/build, with bankgate built inside it (FetchContent).
const RefreshContext project{"/home/user/project/build/_deps/bankgate-build/cli/bankgate", "/home/user/project/build"};
const TestLocation where{"SquareTile", "setRowReadColIpad",
                         std::filesystem::path("baselines") / "sm_90" / "nvidia-h200" / "SquareTile.json", project};

// A padded tile that lost its padding: loads went from 1 to 32 transactions per request.
TestRecord baseline_record() {
  TestRecord r;
  r.kernel = "setRowReadColIpad";
  r.counters[load_wavefronts] = {1024, {}};
  r.derived[load_tpr] = 1;
  r.derived[store_tpr] = 1;
  r.timing = TimingSummary{};
  r.timing->median_ns = 2000;
  r.timing->samples = 200;
  return r;
}

TestRecord regressed_record() {
  TestRecord r = baseline_record();
  r.counters[load_wavefronts].value = 32768;
  r.derived[load_tpr] = 32;
  r.timing->median_ns = 4000;
  return r;
}

Finding finding_for(const std::string& metric, const TestRecord& baseline, const TestRecord& measured) {
  for (const Finding& f : compare(baseline, measured))
    if (f.metric == metric) return f;
  ADD_FAILURE() << "compare() gave no finding for " << metric;
  return {};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// ---------------------------------------------------------------------------------------------------------------
// Failure messages

TEST(FailureMessage, CounterChangeNamesEverythingNeededToAct) {
  const TestRecord baseline = baseline_record();
  const TestRecord measured = regressed_record();
  const Finding f = finding_for(load_wavefronts, baseline, measured);
  ASSERT_EQ(f.verdict, Verdict::counter_changed);

  const std::string text = format_failure(where, f, measured, baseline);
  EXPECT_TRUE(mentions(text, "SquareTile.setRowReadColIpad"));
  EXPECT_TRUE(mentions(text, "shared load transactions"));  // the display name
  EXPECT_TRUE(mentions(text, load_wavefronts));             // and the metric as CUPTI spells it
  EXPECT_TRUE(mentions(text, "measured   32768"));
  EXPECT_TRUE(mentions(text, "baseline   1024"));
  EXPECT_TRUE(mentions(text, "+31744 (+3100.0%)"));
  EXPECT_TRUE(mentions(text, "tolerance  exact"));
  EXPECT_TRUE(mentions(text, where.baseline_file.string()));
  EXPECT_TRUE(mentions(text, refresh_command(project, "SquareTile", "setRowReadColIpad")));
  EXPECT_TRUE(mentions(text, "CHANGED"));
}

TEST(FailureMessage, ChangedTransactionsPerRequestAreShownUnchangedOnesAreNot) {
  const TestRecord baseline = baseline_record();
  const TestRecord measured = regressed_record();
  const std::string text = format_failure(where, finding_for(load_wavefronts, baseline, measured), measured, baseline);
  EXPECT_TRUE(mentions(text, std::string(load_tpr) + ": 32 (baseline 1)"));
  EXPECT_EQ(text.find(store_tpr), std::string::npos) << text;
}

TEST(FailureMessage, SlowerDurationSaysRegressedWithUnitAndTolerance) {
  const TestRecord baseline = baseline_record();
  TestRecord measured = baseline;
  measured.timing->median_ns = 4000;
  const Finding f = finding_for(duration_metric, baseline, measured);
  ASSERT_EQ(f.verdict, Verdict::slower);

  const std::string text = format_failure(where, f, measured, baseline);
  EXPECT_TRUE(mentions(text, "duration regressed"));
  EXPECT_TRUE(mentions(text, std::string(duration_metric) + " [ns]"));
  EXPECT_TRUE(mentions(text, "measured   4000"));
  EXPECT_TRUE(mentions(text, "baseline   2000"));
  EXPECT_TRUE(mentions(text, "+2000 (+100.0%)"));
  EXPECT_TRUE(mentions(text, "tolerance  " + describe(TimingTolerance{})));
  EXPECT_TRUE(mentions(text, "statistics +100.00% (99% interval"));
  EXPECT_TRUE(mentions(text, refresh_command(project, "SquareTile", "setRowReadColIpad")));
}

TEST(FailureMessage, UnmeasuredCounterShowsNoMeasuredValueAndNoChange) {
  const TestRecord baseline = baseline_record();
  TestRecord measured = baseline;
  measured.counters.clear();
  const Finding f = finding_for(load_wavefronts, baseline, measured);
  ASSERT_EQ(f.verdict, Verdict::not_measured);

  const std::string text = format_failure(where, f, measured, baseline);
  EXPECT_TRUE(mentions(text, "NOT MEASURED"));
  EXPECT_TRUE(mentions(text, "measured   -\n"));
  EXPECT_TRUE(mentions(text, "baseline   1024\n"));
  EXPECT_EQ(text.find("change"), std::string::npos) << text;
}

TEST(FailureMessage, CounterMissingFromBaselineShowsNoBaselineValue) {
  const TestRecord baseline = baseline_record();
  TestRecord measured = baseline;
  measured.counters["smsp__sass_inst_executed_op_shared_st.sum"] = {64, {}};
  const Finding f = finding_for("smsp__sass_inst_executed_op_shared_st.sum", baseline, measured);
  ASSERT_EQ(f.verdict, Verdict::not_in_baseline);

  const std::string text = format_failure(where, f, measured, baseline);
  EXPECT_TRUE(mentions(text, "NOT IN BASELINE"));
  EXPECT_TRUE(mentions(text, "measured   64\n"));
  EXPECT_TRUE(mentions(text, "baseline   -\n"));
}

TEST(FailureMessage, RefreshCommandFiltersToTheOneTest) {
  EXPECT_EQ(refresh_command(project, "SquareTile", "setRowReadColIpad"),
            "/home/user/project/build/_deps/bankgate-build/cli/bankgate refresh --build /home/user/project/build "
            "--filter 'SquareTile.setRowReadColIpad'");
}

// Paths with spaces or quotes still give a command a shell runs as written.
TEST(FailureMessage, RefreshCommandQuotesPathsForTheShell) {
  EXPECT_EQ(refresh_command({"bankgate", "/tmp/my build"}, "A", "b"),
            "bankgate refresh --build '/tmp/my build' --filter 'A.b'");
  EXPECT_EQ(refresh_command({"/opt/it's/bankgate", ""}, "A", "b"), "'/opt/it'\\''s/bankgate' refresh --filter 'A.b'");
}

// ---------------------------------------------------------------------------------------------------------------
// Numbers and changes

TEST(FormatNumber, IntegersHaveNoFraction) {
  EXPECT_EQ(format_number(0), "0");
  EXPECT_EQ(format_number(1024), "1024");
  EXPECT_EQ(format_number(-3), "-3");
  EXPECT_EQ(format_number(1e15), "1000000000000000");
}

TEST(FormatNumber, FractionsKeepUpToThreeDecimalsWithoutTrailingZeros) {
  EXPECT_EQ(format_number(2.5), "2.5");
  EXPECT_EQ(format_number(1.25), "1.25");
  EXPECT_EQ(format_number(1.0 / 3.0), "0.333");
  EXPECT_EQ(format_number(2.0 / 3.0), "0.667");
  EXPECT_EQ(format_number(-0.125), "-0.125");
}

TEST(FormatNumber, FloatingPointNoiseOnAnIntegerIsHidden) {
  EXPECT_EQ(format_number(0.05 * 100), "5");  // 5.000000000000001
  EXPECT_EQ(format_number(10.0001), "10");
}

TEST(FormatChange, RiseShowsSignAndPercent) { EXPECT_EQ(format_change(32768, 1024), "+31744 (+3100.0%)"); }

TEST(FormatChange, DropShowsMinusAndPercent) { EXPECT_EQ(format_change(900, 1000), "-100 (-10.0%)"); }

TEST(FormatChange, NoChangeIsPlusZero) { EXPECT_EQ(format_change(1000, 1000), "+0 (+0.0%)"); }

TEST(FormatChange, ZeroBaselineHasNoPercent) { EXPECT_EQ(format_change(5, 0), "+5"); }

TEST(FormatChange, FractionalChange) { EXPECT_EQ(format_change(1.5, 1), "+0.5 (+50.0%)"); }

// ---------------------------------------------------------------------------------------------------------------
// Tables

TEST(FormatTable, ColumnsAreAlignedUnderTheHeader) {
  const std::string table =
      format_table({{"test", "median", "verdict"}, {"setRowReadRow", "2048", "ok"}, {"x", "40960.25", "SLOWER"}});
  EXPECT_EQ(table,
            "test           median    verdict\n"
            "--------------------------------\n"
            "setRowReadRow  2048      ok\n"
            "x              40960.25  SLOWER\n");
}

TEST(FormatTable, EveryColumnStartsAtTheSameOffsetOnEveryLine) {
  const std::vector<std::vector<std::string>> rows = {{"a", "bb", "c"}, {"dddd", "e", "ffffff"}, {"g", "hhhhhhh", "i"}};
  const std::vector<std::string> lines = lines_of(format_table(rows));
  ASSERT_EQ(lines.size(), 4u);  // header, rule, two rows
  const std::size_t second = std::string("dddd").size() + 2;
  const std::size_t third = second + std::string("hhhhhhh").size() + 2;
  for (const std::size_t line : {0u, 2u, 3u}) {
    const std::size_t row = line == 0 ? 0 : line - 1;
    SCOPED_TRACE(lines[line]);
    EXPECT_EQ(lines[line].substr(0, rows[row][0].size()), rows[row][0]);
    EXPECT_EQ(lines[line].substr(second, rows[row][1].size()), rows[row][1]);
    EXPECT_EQ(lines[line].substr(third), rows[row][2]);
  }
  EXPECT_EQ(lines[1], std::string(third + std::string("ffffff").size(), '-'));
}

TEST(FormatTable, ControlCharactersAreShownEscapedAndColumnsStayAligned) {
  const std::string table = format_table({{"test", "result"}, {"Evil.\x1b[2J", "x"}, {"plain", "y"}});
  EXPECT_EQ(table.find('\x1b'), std::string::npos) << table;
  const std::vector<std::string> lines = lines_of(table);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[2], "Evil.\\x1b[2J  x");
  EXPECT_EQ(lines[3].size(), lines[2].size());  // the escaped cell's width is what is shown
}

TEST(FormatTable, NoTrailingSpacesAfterTheLastColumn) {
  const std::vector<std::string> lines = lines_of(format_table({{"name", "value"}, {"a", "1"}, {"longer name", "2"}}));
  for (const std::string& line : lines) {
    ASSERT_FALSE(line.empty());
    EXPECT_NE(line.back(), ' ') << "'" << line << "'";
  }
}

// A table kept within a width: the last column (a reason, a detail) goes on over continuation lines, whole.
TEST(FormatTable, AWideLastColumnIsWrappedBetweenWordsWithinTheWidth) {
  const std::string reason =
      "cannot measure: counter access is restricted to administrators (ERR_NVGPUCTRPERM) | see the README";
  TableStyle style;
  style.width = 64;
  const std::vector<std::string> lines = lines_of(format_table({{"test", "result", "detail"},
                                                                {"Reverse.reverseShared", "NOT MEASURED", reason},
                                                                {"Short.test", "passed", "median 768 ns"}},
                                                               style));
  const std::size_t detail_at = std::string("Reverse.reverseShared  NOT MEASURED  ").size();
  std::string joined;
  std::size_t longest = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    SCOPED_TRACE(lines[i]);
    EXPECT_LE(lines[i].size(), 64u);
    if (i != 1) longest = std::max(longest, lines[i].size());
    EXPECT_NE(lines[i].back(), ' ');
    if (i >= 2 && i + 1 < lines.size()) joined += (joined.empty() ? "" : " ") + lines[i].substr(detail_at);
    if (i >= 3 && i + 1 < lines.size()) {  // a continuation line: blank up to the detail's column
      EXPECT_EQ(lines[i].substr(0, detail_at), std::string(detail_at, ' '));
    }
  }
  EXPECT_EQ(joined, reason);  // every word, none cut
  EXPECT_GT(lines.size(), 4u);
  EXPECT_EQ(lines.back(), "Short.test             passed        median 768 ns");
  EXPECT_EQ(lines[1].size(), longest);  // the rule spans the table as wrapped
}

TEST(FormatTable, ATableWithinTheWidthIsNotWrapped) {
  const std::vector<std::vector<std::string>> rows{{"test", "verdict"}, {"a.b", "a reason of several words"}};
  TableStyle style;
  style.width = 40;
  EXPECT_EQ(format_table(rows, style), format_table(rows));
}

TEST(FormatTable, AWordLongerThanTheColumnIsCutAcrossLines) {
  TableStyle style;
  style.width = 40;
  const std::string word(60, 'x');
  const std::vector<std::string> lines = lines_of(format_table({{"name", "detail"}, {"t", word}}, style));
  ASSERT_EQ(lines.size(), 4u);  // header, rule, then the word over two lines of the column's 34 characters
  EXPECT_EQ(lines[2], "t     " + std::string(34, 'x'));
  EXPECT_EQ(lines[3], "      " + std::string(26, 'x'));
}

TEST(FormatTable, OtherWideColumnsLeaveTheLastOneReadable) {
  TableStyle style;
  style.width = 40;
  const std::string name(50, 'n');
  const std::vector<std::string> lines =
      lines_of(format_table({{"name", "detail"}, {name, "one two three four five six seven eight"}}, style));
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[2], name + "  one two three four five");  // at least 24 columns for the detail
  EXPECT_EQ(lines[3], std::string(52, ' ') + "six seven eight");
}

TEST(FormatTable, ColumnsAreMeasuredInCharactersNotBytes) {
  const std::vector<std::string> lines =
      lines_of(format_table({{"tolerance", "verdict"}, {"\u00b13%", "ok"}, {"exact", "CHANGED"}}));
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[2], "\u00b13%        ok");
  EXPECT_EQ(lines[3], "exact      CHANGED");
}

TEST(FormatTable, TheTonedColumnIsColouredOnlyWithAPaletteThatIsOn) {
  const std::vector<std::vector<std::string>> rows{
      {"test", "verdict", "detail"}, {"a", "ok", "x"}, {"b", "CHANGED", "y"}};
  TableStyle style;
  style.toned_column = 1;
  style.tones = {Tone::good, Tone::bad};
  EXPECT_EQ(format_table(rows, style), format_table(rows)) << "a default palette paints nothing";
  style.palette = Palette::coloured();
  const std::vector<std::string> lines = lines_of(format_table(rows, style));
  ASSERT_EQ(lines.size(), 4u);
  // The padding is measured on the text, not on the codes around it.
  EXPECT_EQ(lines[2], "a     \x1b[32mok\x1b[0m       x");
  EXPECT_EQ(lines[3], "b     \x1b[1;31mCHANGED\x1b[0m  y");
  EXPECT_EQ(lines[0].find('\x1b'), std::string::npos) << "the header is not coloured";
}

// ---------------------------------------------------------------------------------------------------------------
// Colour

TEST(Colour, EachVerdictIsColouredAsItCountsInTheExitCode) {
  EXPECT_EQ(tone_of(Verdict::pass), Tone::good);
  EXPECT_EQ(tone_of(Verdict::faster), Tone::good);
  EXPECT_EQ(tone_of(Verdict::faster, true, /*fail_on_speedup=*/true), Tone::bad);
  EXPECT_EQ(tone_of(Verdict::counter_changed), Tone::bad);
  EXPECT_EQ(tone_of(Verdict::slower), Tone::bad);
  EXPECT_EQ(tone_of(Verdict::not_in_baseline), Tone::bad);
  EXPECT_EQ(tone_of(Verdict::inconclusive), Tone::doubtful);
  EXPECT_EQ(tone_of(Verdict::pass, /*correct=*/false), Tone::bad) << "a wrong output fails whatever the verdict";
}

TEST(Colour, APaletteThatIsOffPaintsNothing) {
  EXPECT_EQ(Palette().paint("FAILED", Tone::bad), "FAILED");
  EXPECT_EQ(Palette::coloured().paint("FAILED", Tone::bad), "\x1b[1;31mFAILED\x1b[0m");
  EXPECT_EQ(Palette::coloured().paint("passed", Tone::good), "\x1b[32mpassed\x1b[0m");
  EXPECT_EQ(Palette::coloured().paint("INCONCLUSIVE", Tone::doubtful), "\x1b[33mINCONCLUSIVE\x1b[0m");
  EXPECT_EQ(Palette::coloured().paint("name", Tone::plain), "name");
  EXPECT_EQ(Palette::coloured().paint("", Tone::bad), "") << "an empty cell gets no codes";
}

TEST(Colour, ChosenForATerminalUnlessNoColorOrNeverAndAlwaysWhenForced) {
  EXPECT_TRUE(use_colour(ColourChoice::automatic, /*terminal=*/true, /*no_color_set=*/false));
  EXPECT_FALSE(use_colour(ColourChoice::automatic, false, false)) << "a pipe or a file gets no colour";
  EXPECT_FALSE(use_colour(ColourChoice::automatic, true, true)) << "NO_COLOR turns it off";
  EXPECT_FALSE(use_colour(ColourChoice::never, true, false));
  EXPECT_TRUE(use_colour(ColourChoice::always, false, false));
  EXPECT_TRUE(use_colour(ColourChoice::always, true, true)) << "asked for on the command line, over NO_COLOR";
}

// ---------------------------------------------------------------------------------------------------------------
// Text from outside: test names and messages hold whatever the tests printed

const std::string fffd = "\xEF\xBF\xBD";

TEST(ValidUtf8, KeepsWellFormedTextAsItIs) {
  const std::string text = "plain, µs, ≠, — and \xF0\x9F\x98\x80 (four bytes)\n\ttab";
  EXPECT_EQ(valid_utf8(text), text);
}

TEST(ValidUtf8, ReplacesEachByteThatIsNoPartOfASequence) {
  EXPECT_EQ(valid_utf8("a\xFF\xFE"
                       "b"),
            "a" + fffd + fffd + "b");                                    // bytes UTF-8 never uses
  EXPECT_EQ(valid_utf8("cut \xE2\x82"), "cut " + fffd + fffd);           // a sequence cut short at the end
  EXPECT_EQ(valid_utf8("\xE2\x82x"), fffd + fffd + "x");                 // ... or by a byte that does not continue it
  EXPECT_EQ(valid_utf8("\x80"), fffd);                                   // a continuation byte alone
  EXPECT_EQ(valid_utf8("\xC0\xAF"), fffd + fffd);                        // an overlong '/'
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), fffd + fffd + fffd);             // a surrogate
  EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // beyond U+10FFFF
}

TEST(ValidUtf8, WhatItGivesDumpsAsJson) {
  // nlohmann::json throws on invalid UTF-8 with its default handler: this is what lost the gate's reports.
  const nlohmann::json message = valid_utf8("failed \xFF\xC3\x28 here");
  EXPECT_NO_THROW(static_cast<void>(message.dump()));
}

TEST(TerminalSafe, ControlCharactersBecomeVisibleEscapes) {
  EXPECT_EQ(terminal_safe("a\x1b[2Jb"), "a\\x1b[2Jb");        // ESC: a terminal command
  EXPECT_EQ(terminal_safe("over\rwrite"), "over\\x0dwrite");  // CR: overwrites the line
  EXPECT_EQ(terminal_safe("bell\x07"), "bell\\x07");
  EXPECT_EQ(terminal_safe("del\x7f"), "del\\x7f");
  EXPECT_EQ(terminal_safe("csi\xC2\x9B"
                          "31m"),
            "csi\\x9b31m");  // U+009B, the one-character CSI
  EXPECT_EQ(terminal_safe(std::string("nul\0x", 5)), "nul\\x00x");
}

TEST(TerminalSafe, KeepsNewlinesTabsAndPrintableUnicode) {
  const std::string text = "line one\n\tline two: 2.965 ≠ 3, 4.10 µs — ok";
  EXPECT_EQ(terminal_safe(text), text);
}

TEST(TerminalSafe, ReplacesBytesThatAreNotUtf8AndIsIdempotent) {
  EXPECT_EQ(terminal_safe("raw \x9B"), "raw " + fffd);  // a C1 byte outside UTF-8 is no command either
  const std::string once = terminal_safe("x\x1b\xFF\xC2\x85y");
  EXPECT_EQ(terminal_safe(once), once);
}

TEST(TerminalLine, NewlinesReorderingAndInvisibleCharactersAreShownToo) {
  EXPECT_EQ(terminal_line("a\nforged\tline"), "a\\x0aforged\\x09line");
  EXPECT_EQ(terminal_line("exe.\u202Etxt"), "exe.\\u202etxt");  // right-to-left override
  EXPECT_EQ(terminal_line("A.b\u200B"), "A.b\\u200b");          // zero-width space: a name posing as A.b
  EXPECT_EQ(terminal_line("para\u2029graph"), "para\\u2029graph");
  EXPECT_EQ(terminal_safe("exe.\u202Etxt\nnext"), "exe.\\u202etxt\nnext");  // a message keeps its lines
}

TEST(ShellQuote, OneWordWhateverItHolds) {
  EXPECT_EQ(shell_quote("build/test"), "build/test");
  EXPECT_EQ(shell_quote("build/test", /*always=*/true), "'build/test'");
  EXPECT_EQ(shell_quote("it's; rm -rf ~"), R"('it'\''s; rm -rf ~')");
  EXPECT_EQ(shell_quote(""), "''");
}

TEST(FilterLiteral, SelectsTheNameOnOneLineWithoutFilterSyntax) {
  EXPECT_EQ(filter_literal("Suite.test/0"), "Suite.test/0");
  EXPECT_EQ(filter_literal("-A.*:B.c"), R"(\-A.\*\:B.c)");  // no negative part, no wildcard, no second pattern
  EXPECT_EQ(filter_literal("A.b\nc\x1b"), R"(A.b\x0ac\x1b)");
  EXPECT_EQ(filter_literal("A.\u202E"), R"(A.\xe2\x80\xae)");  // byte by byte
  EXPECT_EQ(filter_literal("A.\xFF"), R"(A.\xff)");
  EXPECT_EQ(filter_literal("A.\u00e9"), "A.\u00e9");        // printable Unicode stays
  EXPECT_EQ(filter_literal(R"(A.\x41?)"), R"(A.\\x41\?)");  // a '\' of the name is no escape
}

TEST(RefreshCommand, QuotesTheNameAndAFolderThatLooksLikeAnOption) {
  EXPECT_EQ(refresh_command({"bankgate", "-b"}, "X", "y' --new-gpu; touch PWNED; '"),
            R"(bankgate refresh --build ./-b --filter 'X.y'\'' \-\-new\-gpu; touch PWNED; '\''')");
}

TEST(MarkdownText, NothingInItIsMarkup) {
  EXPECT_EQ(markdown_text("![x](https://e.example/p.png)"), R"(!\[x\](https:\//e.example/p.png))");
  EXPECT_EQ(markdown_text("<img src=x onerror=alert(1)> & a|b"), R"(&lt;img src=x onerror=alert(1)&gt; &amp; a\|b)");
  EXPECT_EQ(markdown_text("line\n## forged"), "line<br>## forged");
  EXPECT_EQ(markdown_text(R"(*em* _u_ ~~s~~ `c` \)"), R"(\*em\* \_u\_ \~\~s\~\~ \`c\` \\)");
  EXPECT_EQ(markdown_text("www.e.example @team"), "www\\.e.example @\u2060team");
}

TEST(MarkdownCode, NoRunOfBackticksInsideClosesTheSpan) {
  EXPECT_EQ(markdown_code("a.b"), "`a.b`");
  EXPECT_EQ(markdown_code("x```y"), "````x```y````");
  EXPECT_EQ(markdown_code("`"), "`` ` ``");
  EXPECT_EQ(markdown_code(""), "` `");
  EXPECT_EQ(markdown_code("a|b\nc", MarkdownPlace::table), R"(`a\|b\x0ac`)");
  EXPECT_EQ(markdown_code_block("x\n````\ny"), "`````text\nx\n````\ny\n`````\n");
}

TEST(XmlText, WhatXml10ForbidsIsShownEscaped) {
  EXPECT_EQ(xml_text("a\x1b[31mb\x07"), R"(a\x1b[31mb\x07)");
  EXPECT_EQ(xml_text(std::string("nul\0", 4)), R"(nul\x00)");
  EXPECT_EQ(xml_text("\uFFFE\uFFFF"), R"(\ufffe\uffff)");
  EXPECT_EQ(xml_text("tab\tline\ncr\r\u0085"), "tab\tline\ncr\r\u0085");  // all allowed in XML 1.0
  EXPECT_EQ(xml_text("bad \xFF"), "bad " + fffd);
}

TEST(HtmlText, NothingInItIsMarkup) {
  EXPECT_EQ(html_text(R"(<a href='x'>"&")"), "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;");
  EXPECT_EQ(html_text("bad \xFF"), "bad " + fffd);
}

TEST(FailureMessage, ControlCharactersInNamesAreShownEscaped) {
  const TestRecord baseline = baseline_record();
  TestRecord measured = regressed_record();
  measured.kernel = "evil\x1b]0;title\x07";
  const Finding f = finding_for(load_wavefronts, baseline, measured);
  const std::string text = format_failure(where, f, measured, baseline);
  EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
  EXPECT_TRUE(mentions(text, "kernel evil\\x1b]0;title\\x07"));
}

}  // namespace
