#include "subcommand_table.hpp"

namespace bankgate::cli {

// In the order --help lists them within each group (people's subcommands, then the plumbing): by the loop they
// serve. readme-table came last and stays there, and later ones (history, bisect) come after it, so that any list
// of the subcommands keeps its order.
std::span<const Subcommand> subcommand_table() {
  // clang-format off
  static const Subcommand table[] = {
      {"gate", "build, run the GPU suites in strict mode against the baselines, print the verdict and write JUnit, JSON "
               "and markdown reports",
       false, true, define_gate, ""},
      {"record", "build, run the GPU suites and keep what they measured as candidates, shown against the baselines; "
                 "writes no baseline",
       false, true, define_record, ""},
      // review writes only its --json file, last and through a rename.
      {"review", "show candidates against the baselines: old, new, change, verdict", false, true, define_review,
       "nothing was written"},
      // A promotion is all or nothing per baselines folder; one that spans several names those already done.
      {"promote", "write reviewed candidates into the baselines (only tests whose output matched the CPU reference)",
       false, true, define_promote, "nothing was written, but for any baselines named above as already promoted"},
      {"refresh", "record, then promote: re-measure tests after a deliberate change and write them into the baselines",
       false, true, define_refresh, ""},
      {"compare", "judge a head build against a base build, both measured on this machine in alternating rounds: "
                  "counters by the gate's rules, durations by their round-to-round noise (SLOWER, ok or INCONCLUSIVE)",
       false, true, define_compare, ""},
      {"compare-commits", "compare for two commits of the project here: each checked out in a git worktree, configured "
                          "(Ninja, Release) and built under --work, then head judged against base as compare does",
       false, true, define_compare_commits, ""},
      {"summary", "the gate's verdict and reports from the files a GPU run left, or from the report folders of a gate "
                  "split over runners",
       false, true, define_summary, ""},
      {"metrics", "the counters the gate reads: their metric names, comma-separated (for ncu --metrics), or the whole "
                  "metric table as JSON or markdown",
       false, false, define_metrics, ""},
      {"check-baselines", "read every committed baseline with the gate's reader (no GPU needed): schema, names, "
                          "tolerances and their reasons, ranges",
       false, false, define_check_baselines, ""},
      {"recover", "roll back what an interrupted promotion left in a baselines folder (readers refuse such a folder "
                  "until then; the next promote also does it)",
       false, false, define_recover, ""},
      {"run-suite", "run one GPU suite as one process, a result file per test, a crashed test charged and the rest "
                    "continued in a fresh process (ctest runs it)",
       true, false, define_run_suite, ""},
      {"verdict", "one test's result from its suite's run: exit 0 passed or skipped, 1 failed", true, false,
       define_verdict, ""},
      {"discover", "write the ctest entries of a suite's tests (bankgate_add_gpu_suite runs it)", true, false,
       define_discover, ""},
      {"protocol", "the names bankgate's processes share, for scripts: environment variables, result layout, test "
                   "properties, exit codes (JSON)",
       true, false, define_protocol, ""},
      {"kernel-name", "the name results give a kernel (its bare function name, as in tests and baselines), as a JSON "
                      "list of {name, bare}",
       true, false, define_kernel_name, ""},
      {"readme-table", "the table of expected against measured ratios (shared transactions and global sectors per "
                       "request), from the baselines; printed, written into a README, or checked",
       false, false, define_readme_table, ""},
      {"history", "the results every run appended: import earlier runs, show a series, find change points, mark "
                  "them, count each test's precision", false, false, define_history, ""},
      {"bisect", "the first commit between GOOD and BAD at which a counter changed, each probed commit built and "
                 "measured once; where none did, the first whose duration got slower, by compare's rounds",
                 false, true, define_bisect, ""},
  };
  // clang-format on
  return table;
}

}  // namespace bankgate::cli
