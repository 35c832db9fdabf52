#include "apps/app_main.hpp"

#include <exception>
#include <iostream>

#include "io/run_distribution.hpp"
#include "io/together.hpp"

namespace mheta::apps {

namespace {

constexpr int kExitFail = 1;
constexpr int kExitError = 2;

void report_error(const std::string& app, const std::string& message) {
  if (!message.empty()) std::cerr << app << ": error: " << message << std::endl;
}

int run(int argc, char** argv, const AppSpec& spec, const AppBody& body, AppContext& context) {
  CLI::App cli(spec.description, spec.name);
  add_app_options(cli, spec, context.options);
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Every rank parses the same arguments; one of them speaks.
    if (context.rank == 0) return cli.exit(e);
    return e.get_exit_code() == 0 ? 0 : kExitError;
  }
  IterationReport report;
  context.report = &report;
  // Every rank reads the same dist.txt and fails the same way: rank 0 tells.
  try {
    context.dist = io::run_distribution(context.options.dist, context.ranks, context.options.rows);
  } catch (const std::exception& e) {
    if (context.rank == 0) report_error(spec.name, e.what());
    return kExitError;
  }
  io::together(context.comm, [&] { context.settings = io::sweep_settings(context.comm, context.options.prefetch); });
  const bool pass = body(context);
  report.print(context.comm);
  return pass ? 0 : kExitFail;
}

}  // namespace

int run_app(int argc, char** argv, const AppSpec& spec, const AppBody& body) {
  MPI_Init(&argc, &argv);
  AppContext context;
  MPI_Comm_rank(context.comm, &context.rank);
  MPI_Comm_size(context.comm, &context.ranks);
  int code = 0;
  try {
    code = run(argc, argv, spec, body, context);
  } catch (const io::FailedTogether& e) {
    report_error(spec.name, e.what());
    code = kExitError;
  } catch (const std::exception& e) {
    // A failure on this rank alone: the others may be waiting for it.
    report_error(spec.name, e.what());
    MPI_Abort(context.comm, kExitError);
  }
  MPI_Finalize();
  return code;
}

}  // namespace mheta::apps
