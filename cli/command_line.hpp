#pragma once
// What main() does around CLI11's parsing so every command reads alike:
// unknown commands answered with the nearest name, errors prefixed
// `mheta <command>:`, and the program of `mheta run` told apart from
// mheta's own options.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace mheta::cli {

// For `args` (argv without argv[0]) naming no command of `app`: the error
// to print ("mheta predcit: unknown command; did you mean predict?").
// Empty when args start with an option or a known command.
std::string unknown_command(const CLI::App& app, const std::vector<std::string>& args);

// Commands that run a program (prefix commands: `mheta run ... prog args`)
// stop parsing at the program's first word. A `--` in their words is
// replaced by kProgramSeparator so that CLI11 passes it on rather than
// ending the command; program_words() restores it.
inline constexpr const char* kProgramSeparator = "\x1f--";
void mark_program_separator(const CLI::App& app, std::vector<std::string>& args);

// The program and its arguments: the words of `cmd` left after its own
// options, without a leading `--`.
std::vector<std::string> program_words(const CLI::App& cmd);

// Prints CLI11's error as `mheta <command>: <what>` (help and version as
// CLI11 prints them) and returns the exit code.
int report_parse_error(const CLI::App& app, const CLI::ParseError& error);

}  // namespace mheta::cli
