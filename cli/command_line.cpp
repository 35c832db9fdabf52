#include "cli/command_line.hpp"

#include <algorithm>
#include <iostream>
#include <numeric>

#include <mheta/exit_codes.hpp>

namespace mheta::cli {

namespace {

// Levenshtein distance: how many letters to change, add or drop.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::string unknown_command(const CLI::App& app, const std::vector<std::string>& args) {
  if (args.empty() || args[0].starts_with('-')) return {};
  std::string nearest;
  std::size_t best = std::string::npos;
  std::string names;
  for (const CLI::App* cmd : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (cmd->get_name() == args[0]) return {};
    names += (names.empty() ? "" : ", ") + cmd->get_name();
    const std::size_t d = edit_distance(args[0], cmd->get_name());
    if (d < best) {
      best = d;
      nearest = cmd->get_name();
    }
  }
  std::string message = "mheta " + args[0] + ": unknown command";
  if (best <= std::max<std::size_t>(2, args[0].size() / 3)) return message + "; did you mean " + nearest + "?";
  return message + "; the commands are " + names + " (mheta --help)";
}

void mark_program_separator(const CLI::App& app, std::vector<std::string>& args) {
  if (args.empty()) return;
  const CLI::App* cmd = nullptr;
  try {
    cmd = app.get_subcommand(args[0]);
  } catch (const CLI::OptionNotFound&) {
    return;
  }
  if (!cmd->get_prefix_command()) return;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (args[i] == "--") args[i] = kProgramSeparator;
  }
}

std::vector<std::string> program_words(const CLI::App& cmd) {
  std::vector<std::string> words = cmd.remaining();
  for (std::string& w : words) {
    if (w == kProgramSeparator) w = "--";
  }
  if (!words.empty() && words.front() == "--") words.erase(words.begin());
  return words;
}

int report_parse_error(const CLI::App& app, const CLI::ParseError& error) {
  if (error.get_exit_code() == 0 || dynamic_cast<const CLI::CallForHelp*>(&error) != nullptr ||
      dynamic_cast<const CLI::CallForAllHelp*>(&error) != nullptr ||
      dynamic_cast<const CLI::CallForVersion*>(&error) != nullptr) {
    const int code = app.exit(error);
    return code == 0 ? kExitOk : kExitUsage;
  }
  std::string command;
  for (const CLI::App* cmd : app.get_subcommands()) command = " " + cmd->get_name();
  std::cerr << "mheta" << command << ": " << error.what() << "\n"
            << "Run mheta" << command << " --help for more information.\n";
  return kExitUsage;
}

}  // namespace mheta::cli
