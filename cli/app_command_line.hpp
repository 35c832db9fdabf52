#pragma once
// The program `mheta validate` measures, given as one string ("./jacobi
// --rows 2048 --iters 20"), and the command line of each of its runs: the
// distribution to run with and a data directory of its own (the apps refuse
// local arrays written for another distribution, docs/apps.md).
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace mheta::cli {

// Splits at white space; single and double quotes group, a backslash
// escapes the next character. Throws std::invalid_argument on an unclosed
// quote or an empty command.
std::vector<std::string> split_command_line(std::string_view text);

struct AppRun {
  std::filesystem::path dist;  // empty: the program's default (Blk)
  std::filesystem::path data;  // the run's own data directory
  bool prefetch = false;
};

// The program's words with --dist and --data set for `run` (replacing any
// the user gave, in either `--opt value` or `--opt=value` form) and
// --prefetch added when asked for and absent.
std::vector<std::string> app_arguments(const std::vector<std::string>& program, const AppRun& run);

// The --data directory the user gave, or empty.
std::string user_data_directory(const std::vector<std::string>& program);

}  // namespace mheta::cli
