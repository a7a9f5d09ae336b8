#pragma once
// What gate, record, refresh and compare do as they finish: append the run's per-test results to the history
// store (docs/history.md). A store that cannot be reached never changes a verdict: the run says so and keeps
// its results in a file for `bankgate history import`.

#include <filesystem>
#include <future>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include <bankgate/history/entries.hpp>

namespace bankgate::cli {

// The store to use: --history where given, else BANKGATE_HISTORY, else the default place,
// <repository>/.bankgate/history.sqlite (the project's repository; its source folder where it is in none; the
// build folder where that is unknown too; with no build, the current folder's). Empty for "off".
std::string history_location(const std::string& option, const std::filesystem::path& build);

// One finished run of a command, as the files it left describe it.
struct FinishedRun {
  std::string command;               // "gate", "record", "refresh", "compare"
  std::filesystem::path build;       // the build measured (its sources give the commit's parent and branch)
  std::filesystem::path candidates;  // what was measured (a folder of rounds is pooled)
  std::filesystem::path records;     // the test result records; empty where there are none (compare)
  // The gate's summary (summary.json's document): its verdicts replace what the records reported; null for the
  // commands that judge nothing.
  nlohmann::json summary;
  // The entries already being collected (start_collecting); unset: collected when the run is appended.
  std::shared_future<history::RunEntry> collected;
  // The GPUs' UUIDs, asked of nvidia-smi while the run measured (ask_gpu_uuids); unset: asked as entries are collected.
  std::shared_future<std::string> gpu_uuids;
};

// nvidia-smi's UUIDs of the GPUs this process sees, asked on a thread of their own as a command starts, so that the
// question (about 25 ms on a GPU runner) is answered before the run ends. Not started where the history is off.
std::shared_future<std::string> ask_gpu_uuids(const std::string& option, const std::filesystem::path& build);

// The run's entries: its tests, its commit, parent and branch, the runner (GPU, driver, CUDA; the GPU's UUID where
// nvidia-smi answers), with the summary's verdicts where it has one.
history::RunEntry finished_run_entry(const FinishedRun& run);

// The run's entries but the summary's verdicts, collected on a thread of their own while the command judges the
// run: reading its files again and asking git and nvidia-smi take a gate about as long as the judging itself.
// Not started (an invalid future) where the history is off; an error comes out where the entries are used.
std::shared_future<history::RunEntry> start_collecting(const std::string& option, const FinishedRun& run);

// Where a run was appended: the store's location and the GPU the run measured on (its baselines folder).
struct Appended {
  std::string location, gpu_key;
};

// Appends the run to the store `option` names (history_location), unless it measured nothing. Never throws: a
// failure is said on standard error with where the run's results were kept instead
// (<build>/bankgate/history-pending/) and how to import them. nullopt where nothing was appended.
std::optional<Appended> append_to_history(const std::string& option, const FinishedRun& run);

}  // namespace bankgate::cli
