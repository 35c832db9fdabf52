// mheta: predict, search and apply data distributions for out-of-core
// iterative MPI programs on heterogeneous clusters.
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/command_line.hpp"
#include <mheta/exit_codes.hpp>

namespace {

constexpr mheta::cli::AddCommand kCommands[] = {
    mheta::cli::add_predict_command,
    mheta::cli::add_demo_command,
    mheta::cli::add_run_command,
    mheta::cli::add_search_command,
    mheta::cli::add_microbench_command,
    mheta::cli::add_redistribute_command,
    mheta::cli::add_validate_command,
    mheta::cli::add_report_command,
    mheta::cli::add_trace_command,
};

}  // namespace

int main(int argc, char** argv) {
  namespace cli = mheta::cli;
  CLI::App app{"mheta: execution model and data-distribution advisor for out-of-core MPI programs on heterogeneous clusters"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "mheta 0.1.0");
  int exit_code = mheta::kExitOk;
  for (const auto add : kCommands) add(app, exit_code);

  std::vector<std::string> args(argv + 1, argv + argc);
  if (const std::string unknown = cli::unknown_command(app, args); !unknown.empty()) {
    std::cerr << unknown << "\n";
    return mheta::kExitUsage;
  }
  cli::mark_program_separator(app, args);
  try {
    // CLI11 takes the words last first.
    app.parse(std::vector<std::string>(args.rbegin(), args.rend()));
  } catch (const CLI::ParseError& error) {
    return cli::report_parse_error(app, error);
  }
  return exit_code;
}
