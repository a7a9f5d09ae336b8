#pragma once
// The parts of `bankgate history` (commands/history.cpp makes them one subcommand): import, show, changes, mark and
// stats, each a file in commands/, and what they share: the store they read.

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include <bankgate/history/store.hpp>

#include "subcommand_table.hpp"

namespace bankgate::cli {

Runner define_history_import(CLI::App& command);
Runner define_history_show(CLI::App& command);
Runner define_history_changes(CLI::App& command);
Runner define_history_mark(CLI::App& command);
Runner define_history_stats(CLI::App& command);

// The end of each part's definition: --history, as the parts take it (history_location's default), the exit
// codes, and `run` as its runner.
Runner store_part(CLI::App& command, std::string& history, Runner run);
// The store to read: one that is not there is an error naming where it was looked for, never a new empty store.
std::unique_ptr<history::Store> open_history(const std::string& option);
// The store to append to, made where it is not there yet.
std::unique_ptr<history::Store> open_history_to_write(const std::string& option);

// A commit as tables show it: its first 12 digits ("(unknown)" where none was recorded).
std::string short_commit(const std::string& commit);

}  // namespace bankgate::cli
