// mheta-microbench: run under mpiexec (2 or more ranks) to characterize the
// cluster; writes cluster.json (docs/microbench.md describes every field).
#include <mpi.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <mheta/exit_codes.hpp>

#include "microbench/microbench.hpp"
#include "microbench/program_collectives.hpp"
#include "model/cluster.hpp"
#include "model/output_file.hpp"
#include "model/text_file.hpp"

namespace {

using mheta::microbench::Options;

void add_options(CLI::App& app, Options& o) {
  app.add_option("-o,--output", o.output, "Where to write cluster.json")->capture_default_str();
  app.add_option("--progress", o.progress, "Progress line on stderr: auto (when stderr is a terminal), always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_option("--budget", o.budget_s, "Time budget in seconds for the whole run")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--target", o.target_relative_ci95,
                 "Stop repeating a figure once its 95% confidence interval is this fraction of it")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_option("--disk-dir", o.disk_dir,
                 "Directory on the local disk for the scratch files (default: a new temporary directory)");
  app.add_option("--disk-file-bytes", o.disk_file_bytes, "Size of each rank's scratch file")
      ->check(CLI::Range(std::int64_t{4} << 20, std::int64_t{1} << 40))
      ->capture_default_str();
  app.add_option("--max-message-bytes", o.max_message_bytes, "Largest ping-pong message")
      ->check(CLI::Range(std::int64_t{64}, std::int64_t{1} << 30))
      ->capture_default_str();
  app.add_option("--max-collective-bytes", o.max_collective_bytes, "Largest per-rank collective buffer")
      ->check(CLI::Range(std::int64_t{8}, std::int64_t{1} << 28))
      ->capture_default_str();
  app.add_option("--profile", o.profiles,
                 "A profile (mheta run) whose collectives are also timed at their own sizes (repeatable)")
      ->allow_extra_args(false);
}

int run(int argc, char** argv, int rank, int size) {
  CLI::App app{"mheta-microbench: measure the cluster (run under mpiexec with 2 or more ranks) and write cluster.json"};
  Options options;
  add_options(app, options);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (rank != 0) return error.get_exit_code() == 0 ? 0 : mheta::kExitUsage;
    const int code = app.exit(error);
    return code == 0 ? 0 : mheta::kExitUsage;
  }
  if (size < 2) {
    if (rank == 0) {
      std::cerr << "mheta-microbench: the network figures (ping-pong, overheads, collectives) need at least 2 "
                   "ranks, but this run has "
                << size << "; run it as: mpiexec -n 2 (or more) mheta-microbench\n";
    }
    return mheta::kExitUsage;
  }
  int problem = 0;
  if (rank == 0) {
    const std::string why = mheta::microbench::output_problem(options.output);
    if (!why.empty()) {
      std::cerr << "mheta-microbench: cannot write " << options.output << ": " << why << "\n";
      problem = 1;
    }
  }
  MPI_Bcast(&problem, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (problem != 0) return mheta::kExitCannotWrite;
  // The profiles are read where the command was given, before any time is spent.
  int bad_profile = 0;
  if (rank == 0) {
    try {
      options.program_collectives = mheta::microbench::read_program_collectives(options.profiles);
    } catch (const std::exception& error) {
      std::cerr << "mheta-microbench: --profile: " << error.what() << "\n";
      bad_profile = 1;
    }
  }
  MPI_Bcast(&bad_profile, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (bad_profile != 0) return mheta::kExitBadInput;
  mheta::microbench::share_program_collectives(options.program_collectives, MPI_COMM_WORLD);
  // The scratch directory is local to each node: every rank checks its own.
  int bad_dir = 0;
  if (!options.disk_dir.empty() && !mheta::microbench::writable_directory(options.disk_dir)) {
    std::cerr << "mheta-microbench: rank " << rank << ": --disk-dir " << options.disk_dir
              << " is not an existing, writable directory\n";
    bad_dir = 1;
  }
  int any_bad_dir = 0;
  MPI_Allreduce(&bad_dir, &any_bad_dir, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any_bad_dir != 0) return mheta::kExitUsage;

  const mheta::model::Json document = mheta::microbench::run_microbench(options, MPI_COMM_WORLD);
  if (rank != 0) return mheta::kExitOk;
  const std::string text = document.dump(2) + "\n";
  // What we write must be what the model reads.
  mheta::model::parse_cluster(text, options.output);
  try {
    mheta::model::write_output(options.output, text);
  } catch (const mheta::model::OutputError& error) {
    std::cerr << "mheta-microbench: " << error.what() << "\n";
    return mheta::kExitCannotWrite;
  }
  const mheta::model::Json& collectives = document["measurement"]["collectives"];
  for (const mheta::model::Json& c : collectives["program_points_not_timed"]) {
    std::cerr << "mheta-microbench: the profile's " << c["collective"].get<std::string>() << " of "
              << c["bytes"].get<std::int64_t>() << " bytes over " << c["ranks"].get<int>()
              << " ranks was not timed (more ranks than this run's " << size
              << ", or a block too large to buffer); its curve prices it\n";
  }
  std::cerr << "mheta-microbench: wrote " << options.output << " (" << size << " ranks, "
            << document["measurement"]["elapsed_s"].get<double>() << " s";
  if (!collectives["program_points"].empty()) {
    std::cerr << ", " << collectives["program_points"].size() << " of the profiles' collectives at their own sizes";
  }
  std::cerr << ")\n";
  return mheta::kExitOk;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int code = mheta::kExitFailure;
  try {
    code = run(argc, argv, rank, size);
  } catch (const std::exception& error) {
    // One rank failing leaves the others inside a collective: abort them all.
    std::cerr << "mheta-microbench: rank " << rank << ": " << error.what() << "\n";
    MPI_Abort(MPI_COMM_WORLD, mheta::kExitFailure);
  }
  MPI_Finalize();
  return code;
}
