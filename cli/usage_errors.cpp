#include "usage_errors.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

#include <bankgate/gate/text/text.hpp>

namespace bankgate::cli {
namespace {

// The edits (a letter added, dropped, changed, or two neighbours swapped) that turn `a` into `b`, case aside.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  const auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  // d[i][j]: the edits that turn the first i letters of `a` into the first j of `b`.
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

std::string_view without_dashes(std::string_view word) {
  return word.substr(std::min(word.find_first_not_of('-'), word.size()));
}

// "; did you mean 'gate'?" where a candidate is near `word`, else `otherwise`.
std::string suggestion(const std::string& word, const std::vector<std::string>& candidates,
                       const std::string& otherwise = "") {
  const std::string near = nearest(word, candidates);
  return near.empty() ? otherwise : "; did you mean '" + near + "'?";
}

// Every name and alias of the subcommands, in the order --help lists them.
std::vector<std::string> subcommand_words(CLI::App& app) {
  std::vector<std::string> words;
  for (const CLI::App* sub : app.get_subcommands({})) {
    words.push_back(sub->get_name());
    for (const std::string& alias : sub->get_aliases()) words.push_back(alias);
  }
  return words;
}

std::string subcommand_names(CLI::App& app) {
  std::string names;
  for (const CLI::App* sub : app.get_subcommands({})) names += (names.empty() ? "" : ", ") + sub->get_name();
  return names;
}

// Every spelling of `command`'s options: --long and -s.
std::vector<std::string> option_words(const CLI::App& command) {
  std::vector<std::string> words;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) words.push_back("--" + name);
    for (const std::string& name : option->get_snames()) words.push_back("-" + name);
  }
  return words;
}

// How many words of the command line a top-level option takes: 1, or 2 where its value follows as a word of its
// own (--color never); 0 where it is none of the top level's. Short flags may come together (-qh).
int top_level_words(CLI::App& app, const std::string& word) {
  if (!word.starts_with("--") && word.size() > 2) {
    for (const char letter : word.substr(1)) {
      const CLI::Option* option = app.get_option_no_throw(std::string("-") + letter);
      if (option == nullptr || option->get_items_expected_min() > 0) return 0;
    }
    return 1;
  }
  const std::size_t equals = word.find('=');
  const CLI::Option* option = app.get_option_no_throw(word.substr(0, equals));
  if (option == nullptr) return 0;
  return option->get_items_expected_min() > 0 && equals == std::string::npos ? 2 : 1;
}

std::string unknown_option(const std::string& who, const std::string& word, const std::vector<std::string>& options,
                           const std::string& otherwise) {
  const std::string name = word.substr(0, word.find('='));
  return who + ": unknown option '" + gate::terminal_safe(name) + "'" + suggestion(name, options, otherwise) +
         "\nRun '" + who + " --help' for its options.\n";
}

// Where `word` is on the command line, argc where it is not.
int position(const std::string& word, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i)
    if (word == argv[i]) return i;
  return argc;
}

}  // namespace

std::string nearest(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string_view bare = without_dashes(word);
  if (bare.size() < 3) return "";
  const std::size_t allowed = std::max<std::size_t>(1, bare.size() / 3);
  std::string best;
  std::size_t best_distance = allowed + 1;
  for (const std::string& candidate : candidates)
    if (const std::size_t distance = edit_distance(bare, without_dashes(candidate)); distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  return best;
}

std::string misspelt_before_subcommand(CLI::App& app, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") return "";
    if (word.size() > 1 && word.starts_with("-")) {
      const int taken = top_level_words(app, word);
      if (taken == 0)
        return unknown_option("bankgate", word, option_words(app),
                              "; a subcommand's own options follow its name (bankgate SUBCOMMAND --help lists them)");
      i += taken - 1;
      continue;
    }
    for (const CLI::App* sub : app.get_subcommands({}))
      if (sub->check_name(word)) return "";
    return "bankgate: unknown subcommand '" + gate::terminal_safe(word) + "'" +
           suggestion(word, subcommand_words(app), "; the subcommands are: " + subcommand_names(app)) +
           "\nRun 'bankgate --help' for what each does.\n";
  }
  return "";
}

std::string unexpected_words(CLI::App& app, int argc, const char* const* argv) {
  const std::vector<std::string> words = app.remaining(true);
  if (words.empty()) return "";
  // CLI11 keeps them in an order of its own: the first on the command line is named, an option before a stray
  // word (that word is most often the misspelt option's value).
  const auto rank = [&](const std::string& word) {
    return (word.size() > 1 && word.starts_with("-") ? 0 : argc + 1) + position(word, argc, argv);
  };
  const std::string first =
      *std::min_element(words.begin(), words.end(), [&](const auto& a, const auto& b) { return rank(a) < rank(b); });
  const CLI::App* command = &app;
  for (const CLI::App* sub : app.get_subcommands()) command = sub;  // the subcommand given, where one was
  const std::string who = command == &app ? "bankgate" : "bankgate " + command->get_name();
  if (first.size() > 1 && first.starts_with("-")) return unknown_option(who, first, option_words(*command), "");
  return who + ": unexpected argument '" + gate::terminal_safe(first) + "'\nRun '" + who +
         " --help' for its options.\n";
}

}  // namespace bankgate::cli
