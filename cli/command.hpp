#pragma once
// Every subcommand registers itself on the root CLI11 app through one
// function; the callback stores the command's exit code in `exit_code`.
#include <CLI/CLI.hpp>

#include <stdexcept>

namespace mheta::cli {

using AddCommand = void (*)(CLI::App& app, int& exit_code);

void add_predict_command(CLI::App& app, int& exit_code);
void add_demo_command(CLI::App& app, int& exit_code);
void add_run_command(CLI::App& app, int& exit_code);
void add_search_command(CLI::App& app, int& exit_code);
void add_microbench_command(CLI::App& app, int& exit_code);
void add_redistribute_command(CLI::App& app, int& exit_code);
void add_validate_command(CLI::App& app, int& exit_code);
void add_report_command(CLI::App& app, int& exit_code);
void add_trace_command(CLI::App& app, int& exit_code);

// A wrong command line found after parsing (a bad launcher template, an
// option's value that does not fit): exit code kExitUsage.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs `body`, turning mheta's exceptions into a message on stderr (naming
// the command) and the documented exit code.
int run_reporting_errors(const char* command, const std::function<int()>& body);

}  // namespace mheta::cli
