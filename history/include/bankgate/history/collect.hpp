#pragma once
// A run's history entries from the files it left: its candidates (what was measured, with the provenance of the
// machine and commit) and its test result records (what was decided). Used by every command that appends and by
// `bankgate history import` of an earlier run's artifacts.
//
// A kernel's code identity (KernelEntry::code_hash) is a hash of its instructions as the per-line figures list
// them: each line's file, line, inline call site, instruction kind and SASS opcodes, not how often they ran. It
// changes with the SASS the attribution saw, and is empty where the run attributed nothing (a gate attributes
// only to explain a changed counter; record and refresh always do).

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include <bankgate/gate/rules/baseline.hpp>
#include <bankgate/history/entries.hpp>

namespace bankgate::history {

// The tests of a run: each candidate under `candidates` (every GPU folder; a folder of several rounds is read
// round by round, samples pooled) with its figures, and each result record in `records` with its outcome and
// details; a test with only one of them is kept with what it has. Either folder may be empty or absent.
std::vector<TestEntry> collect_tests(const std::filesystem::path& candidates, const std::filesystem::path& records);

// The gate's verdicts, from its summary (summary.json's document, `origin` naming it in errors): each test's
// outcome and the findings that failed it, in place of what its result record reported (the suite process's report,
// never the verdict). A test the summary names that has no entry yet is added with its outcome alone. Throws
// std::runtime_error naming `origin` where the summary is not one.
void apply_gate_summary(std::vector<TestEntry>& tests, const nlohmann::json& summary, const std::string& origin);

// The run's commit, GPU, driver and CUDA as the first candidate's provenance says, for the fields of `run` still
// empty.
void fill_from_candidates(RunInfo& run, const std::filesystem::path& candidates);

// One kernel of a candidate as an entry (its figures and code identity).
KernelEntry kernel_entry(const gate::KernelRecord& kernel, const std::string& label);
std::string code_hash(const std::vector<gate::SourceLineFigures>& lines);
// 16 hex digits of FNV-1a over `text`: an identity (of code, of an imported run), not a secret.
std::string text_hash(std::string_view text);

}  // namespace bankgate::history
