// mheta: predict, search and apply data distributions for out-of-core
// iterative MPI programs on heterogeneous clusters.
#include <iostream>

#include "cli/command.hpp"
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
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"mheta: execution model and data-distribution advisor for out-of-core MPI programs on heterogeneous clusters"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "mheta 0.1.0");
  int exit_code = mheta::kExitOk;
  for (const auto add : kCommands) add(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    const int code = app.exit(error);
    return code == 0 ? 0 : mheta::kExitUsage;
  }
  return exit_code;
}
