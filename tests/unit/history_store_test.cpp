// The history store on both engines: appends and series, a run appended twice kept once, two appenders at once
// losing nothing, and the refusals of a damaged store, a newer schema and a server that cannot be reached. The
// PostgreSQL cases run where BANKGATE_TEST_POSTGRESQL_URL names a server (history_postgresql_test.sh starts one)
// and are skipped, saying so, elsewhere.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <bankgate/history/entry_json.hpp>
#include <bankgate/history/store.hpp>
#include <bankgate/history/trend_page.hpp>

#include "connection.hpp"  // history/src: the tests write what no bankgate writes (a newer schema)

namespace {

namespace fs = std::filesystem;
namespace h = bankgate::history;

h::RunEntry make_run(const std::string& key, const std::string& commit, const std::string& parent, double loads,
                     double median_ns, int tests = 3) {
  h::RunEntry run;
  run.run = {key,
             commit,
             parent,
             "main",
             false,
             "gate",
             "2026-11-28T20:00:00Z",
             {"NVIDIA H200", "sm_90/nvidia-h200", "GPU-1", "580.159.04", "13000"}};
  for (int t = 0; t < tests; ++t) {
    h::KernelEntry k{"transpose",
                     "hash-" + commit,
                     {{"shared_loads", loads}, {"shared_stores", 64.0}},
                     median_ns,
                     median_ns - 10,
                     median_ns + 10,
                     2.0,
                     {median_ns, median_ns + 1}};
    run.tests.push_back({"Transpose.case" + std::to_string(t), "passed", {k}, R"({"messages": []})"});
  }
  return run;
}

// A fresh store of the engine under test: an SQLite file in a new folder, or a new schema on the server.
class HistoryStore : public ::testing::TestWithParam<h::Engine> {
 protected:
  void SetUp() override {
    // One folder per test and engine: the test's name ("Appends.../SQLite") with its '/' made a '-'.
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '-');
    folder_ = fs::temp_directory_path() / ("bankgate-history-" + std::to_string(::getpid()) + "-" + name);
    fs::remove_all(folder_);
    fs::create_directories(folder_);
    if (GetParam() == h::Engine::sqlite) {
      location_ = (folder_ / "history.sqlite").string();
      return;
    }
    const char* url = std::getenv("BANKGATE_TEST_POSTGRESQL_URL");
    if (url == nullptr || *url == '\0')
      GTEST_SKIP()
          << "no PostgreSQL server: history_postgresql_test.sh starts one and sets BANKGATE_TEST_POSTGRESQL_URL";
    location_ = url;
    const auto c = h::open_postgresql(location_);  // each test starts from an empty database
    c->execute_script("DROP TABLE IF EXISTS counters, kernels, results, runs, marks, schema_migrations CASCADE");
  }
  void TearDown() override { fs::remove_all(folder_); }

  std::unique_ptr<h::Connection> raw() {
    return GetParam() == h::Engine::sqlite ? h::open_sqlite(location_) : h::open_postgresql(location_);
  }

  fs::path folder_;
  std::string location_;
};

TEST_P(HistoryStore, AppendsRunsAndReadsTheirSeriesOldestFirst) {
  auto store = h::open_store(location_);
  EXPECT_TRUE(store->append(make_run("r1", "c1", "c0", 64, 1000)));
  EXPECT_TRUE(store->append(make_run("r2", "c2", "c1", 2048, 1500)));
  EXPECT_FALSE(store->append(make_run("r2", "c2", "c1", 2048, 1500))) << "a run appended twice is kept once";
  EXPECT_EQ(store->runs(), 2);
  const auto loads = store->series({"Transpose.case1", "shared_loads", "", ""});
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(loads[0].commit, "c1");
  EXPECT_EQ(loads[1].parent, "c1");
  EXPECT_EQ(loads[1].value, 2048);
  EXPECT_EQ(loads[1].code_hash, "hash-c2");
  const auto durations = store->series({"Transpose.case1", "duration", "", "sm_90/nvidia-h200"});
  ASSERT_EQ(durations.size(), 2u);
  EXPECT_EQ(durations[1].value, 1500);
  EXPECT_EQ(durations[1].p90_ns.value_or(0), 1510);
  EXPECT_TRUE(store->series({"Transpose.case1", "duration", "", "sm_80/other"}).empty());
  EXPECT_EQ(store->tests().size(), 3u);
  EXPECT_EQ(store->metrics("Transpose.case0"), (std::vector<std::string>{"shared_loads", "shared_stores"}));
  const auto at = store->counters_at("c2", "sm_90/nvidia-h200");
  EXPECT_EQ(at.size(), 6u) << "3 tests of 2 counters";
  EXPECT_EQ(at.at("Transpose.case1 transpose shared_loads"), 2048);
  EXPECT_TRUE(store->counters_at("c2", "sm_80/other").empty());
}

TEST_P(HistoryStore, KeepsMarks) {
  auto store = h::open_store(location_);
  store->add_mark({"Transpose.case0", "shared_loads", "c2", "intended", "padding removed on purpose", ""});
  const auto marks = h::open_store(location_)->marks();
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].verdict, "intended");
  EXPECT_EQ(marks[0].note, "padding removed on purpose");
  EXPECT_FALSE(marks[0].time.empty());
}

// Two runners appending at once, each through its own connection: every run and every row of it arrives.
TEST_P(HistoryStore, TwoAppendersAtOnceLoseNothing) {
  h::open_store(location_);  // the schema first, as the first run of a store makes it
  constexpr int per_appender = 40;
  const auto appender = [&](const std::string& name) {
    auto store = h::open_store(location_);
    for (int i = 0; i < per_appender; ++i)
      store->append(make_run(name + std::to_string(i), name + "-c" + std::to_string(i), "", i, 1000 + i, 5));
  };
  std::thread a(appender, "a"), b(appender, "b");
  a.join();
  b.join();
  auto store = h::open_store(location_);
  EXPECT_EQ(store->runs(), 2 * per_appender);
  EXPECT_EQ(store->series({"Transpose.case4", "shared_loads", "", ""}).size(), 2u * per_appender);
  EXPECT_EQ(store->series({"Transpose.case0", "duration", "", ""}).size(), 2u * per_appender);
}

TEST_P(HistoryStore, RefusesAStoreOfANewerSchemaAndWritesNothingToIt) {
  h::open_store(location_);
  raw()->query("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)",
               {std::int64_t{h::schema_version + 1}, std::string("later")});
  try {
    h::open_store(location_);
    FAIL() << "a store of a newer schema was opened";
  } catch (const h::StoreError& e) {
    EXPECT_NE(std::string(e.what()).find("has schema version 2, newer than this bankgate's 1"), std::string::npos)
        << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, HistoryStore, ::testing::Values(h::Engine::sqlite, h::Engine::postgresql),
                         [](const auto& engine) {
                           return engine.param == h::Engine::sqlite ? "SQLite" : "PostgreSQL";
                         });

TEST(HistoryStoreSqlite, ADamagedFileIsRefusedNamingItAndWhatToDo) {
  const fs::path file = fs::temp_directory_path() / ("bankgate-damaged-" + std::to_string(::getpid()) + ".sqlite");
  std::ofstream(file) << std::string(8192, 'x');
  try {
    h::open_store(file.string());
    FAIL() << "a damaged store was opened";
  } catch (const h::StoreError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(file.string() + " is damaged"), std::string::npos) << what;
    EXPECT_NE(what.find("move it aside"), std::string::npos) << what;
  }
  fs::remove(file);
}

TEST(HistoryStoreServer, AServerThatCannotBeReachedIsUnreachableWithoutItsPassword) {
  try {
    h::open_store("postgresql://gate:secret@127.0.0.1:1/history");  // port 1: nothing listens
    FAIL() << "a store was reached on port 1";
  } catch (const h::UnreachableStore& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("postgresql://gate:***@127.0.0.1:1/history"), std::string::npos) << what;
    EXPECT_EQ(what.find("secret"), std::string::npos) << what;
  }
}

TEST(HistoryRunFile, KeepsEveryFieldOfARun) {
  const h::RunEntry run = make_run("gate-1-2", "c1", "c0", 64, 1000);
  const h::RunEntry back = h::parse_run_file(h::run_file_json(run), "test");
  EXPECT_EQ(back.run.key, "gate-1-2");
  EXPECT_EQ(back.run.runner.gpu_uuid, "GPU-1");
  ASSERT_EQ(back.tests.size(), 3u);
  EXPECT_EQ(back.tests[2].kernels[0].counters.at("shared_loads"), 64);
  EXPECT_EQ(back.tests[2].kernels[0].p10_ns.value_or(0), 990);
  EXPECT_EQ(back.tests[2].kernels[0].samples_ns, (std::vector<double>{1000, 1001}));
  EXPECT_THROW(h::parse_run_file(R"({"schema": "bankgate-history-run", "schema_version": 9})", "x"), h::RunFileError);
  EXPECT_THROW(h::parse_run_file("not json", "x"), h::RunFileError);
}

// The addresses a page links to: each href's value.
std::vector<std::string> hrefs(const std::string& page) {
  std::vector<std::string> out;
  for (std::size_t at = page.find("href=\""); at != std::string::npos; at = page.find("href=\"", at + 1)) {
    const std::size_t from = at + 6;
    out.push_back(page.substr(from, page.find('"', from) - from));
  }
  return out;
}

// Names in the store come from pull requests: on the trend page they are text, never markup or a link elsewhere.
TEST(HistoryTrendPage, EncodesEveryNameAndLinksOnlyToTheTemplatesAddress) {
  h::SeriesPoint p;
  p.run_id = 3;
  p.commit = "<img src=x onerror=alert(1)>";
  p.value = 768;
  p.p10_ns = 700;
  p.p90_ns = 800;
  const std::string page =
      h::trend_page({"Suite.<script>alert(1)</script>", "duration", "", ""}, {p}, "https://example.com/c/{commit}");
  EXPECT_EQ(page.find("<script>"), std::string::npos) << page;
  EXPECT_EQ(page.find("<img"), std::string::npos) << page;
  EXPECT_NE(page.find("Suite.&lt;script&gt;"), std::string::npos) << page;
  for (const std::string& href : hrefs(page))
    EXPECT_EQ(href, "#run-3") << "a commit that is no hex digits is not linked, only its run: " << page;
  p.commit = "0123abcd";
  EXPECT_NE(h::trend_page({"T.t", "duration", "", ""}, {p}, "https://example.com/c/{commit}")
                .find("href=\"https://example.com/c/0123abcd\""),
            std::string::npos);
  for (const std::string& href : hrefs(h::trend_page({"T.t", "duration", "", ""}, {p}, "javascript:{commit}")))
    EXPECT_EQ(href, "#run-3");
}

// Each point leads to its commit and to its run: the run's row in the page's table of runs, which names its time,
// GPU and commit (linked) once however many plots show it.
TEST(HistoryTrendPage, EachPointLinksToItsCommitAndToItsRunsRow) {
  std::vector<h::SeriesPoint> points(2);
  points[0].run_id = 7, points[0].commit = "aaaa1111", points[0].time = "2026-11-01T10:00:00Z", points[0].value = 32;
  points[1].run_id = 9, points[1].commit = "bbbb2222", points[1].gpu_key = "sm_90/<h200>", points[1].value = 1024;
  const std::string page =
      h::trend_page("T.t", {{{"T.t", "loads", "", ""}, points}, {{"T.t", "stores", "", ""}, points}},
                    "https://example.com/o/r/commit/{commit}");
  const std::vector<std::string> links = hrefs(page);
  for (const char* commit : {"aaaa1111", "bbbb2222"})
    EXPECT_EQ(std::count(links.begin(), links.end(), std::string("https://example.com/o/r/commit/") + commit), 3)
        << "a point in each plot and its run's row: " << page;
  EXPECT_EQ(std::count(links.begin(), links.end(), "#run-9"), 2) << "the run's number under each plot's point";
  EXPECT_EQ(std::count(links.begin(), links.end(), "#run-7"), 2);
  EXPECT_NE(page.find("<tr id=run-7><td>7</td><td>2026-11-01T10:00:00Z</td>"), std::string::npos) << page;
  EXPECT_NE(page.find("<tr id=run-9><td>9</td><td></td><td>sm_90/&lt;h200&gt;</td><td><a "
                      "href=\"https://example.com/o/r/commit/bbbb2222\">bbbb2222</a>"),
            std::string::npos)
      << page;
  EXPECT_EQ(page.find("id=run-9", page.find("id=run-9") + 1), std::string::npos) << "one row per run";
}

}  // namespace
