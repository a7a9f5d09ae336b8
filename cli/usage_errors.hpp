#pragma once
// Usage errors in the user's words, with the nearest right spelling. CLI11 alone says "A subcommand is
// required" for a misspelt subcommand and "The following argument was not expected" for a misspelt option.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace bankgate::cli {

// What is wrong before the subcommand, as the line(s) to print: its word names no subcommand ("bankgate:
// unknown subcommand 'gaet'; did you mean 'gate'?"), or an option there is none of the top level's. Empty
// where nothing is (CLI11's own parse then speaks for the rest).
std::string misspelt_before_subcommand(CLI::App& app, int argc, const char* const* argv);

// After CLI11 refused words it did not expect (CLI::ExtrasError) while parsing `argv`: the first of them on the
// command line, named with the subcommand it was given to and that subcommand's nearest option. Empty where
// CLI11 kept none (its own message then stands).
std::string unexpected_words(CLI::App& app, int argc, const char* const* argv);

// Of `candidates`, the one nearest `word` where it is near enough to be a slip of the keyboard: by the edit
// distance that counts a swap of two neighbouring letters as one edit, at most one edit per three letters (and
// one for the shortest words); the first of the nearest where several tie. Leading dashes are not compared.
// Empty where none is near, or `word` has fewer than three letters (any one-letter option is one edit away).
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace bankgate::cli
