#include "cli/app_command_line.hpp"

#include <stdexcept>

namespace mheta::cli {

std::vector<std::string> split_command_line(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote != 0) {
      if (c == quote) {
        quote = 0;
      } else if (c == '\\' && quote == '"' && i + 1 < text.size()) {
        word += text[++i];
      } else {
        word += c;
      }
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote != 0) throw std::invalid_argument("unclosed quote in the program's command line");
  if (in_word) words.push_back(std::move(word));
  if (words.empty()) throw std::invalid_argument("the program's command line is empty");
  return words;
}

namespace {

// Removes `--name value` and `--name=value`; returns the last value seen.
std::string remove_option(std::vector<std::string>& words, const std::string& name) {
  std::string value;
  for (std::size_t i = 1; i < words.size();) {
    if (words[i] == name && i + 1 < words.size()) {
      value = words[i + 1];
      words.erase(words.begin() + static_cast<std::ptrdiff_t>(i), words.begin() + static_cast<std::ptrdiff_t>(i) + 2);
    } else if (words[i].starts_with(name + "=")) {
      value = words[i].substr(name.size() + 1);
      words.erase(words.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
  return value;
}

}  // namespace

std::vector<std::string> app_arguments(const std::vector<std::string>& program, const AppRun& run) {
  std::vector<std::string> words = program;
  remove_option(words, "--dist");
  remove_option(words, "--data");
  if (!run.dist.empty()) words.insert(words.end(), {"--dist", run.dist.string()});
  words.insert(words.end(), {"--data", run.data.string()});
  bool has_prefetch = false;
  for (std::size_t i = 1; i < words.size(); ++i) has_prefetch = has_prefetch || words[i] == "--prefetch";
  if (run.prefetch && !has_prefetch) words.emplace_back("--prefetch");
  return words;
}

std::string user_data_directory(const std::vector<std::string>& program) {
  std::vector<std::string> words = program;
  return remove_option(words, "--data");
}

}  // namespace mheta::cli
