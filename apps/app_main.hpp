#pragma once
// What every app's main does around its own computation: MPI start and
// end, the shared command line, the distribution (dist.txt or Blk), the
// ICLA settings, and errors turned into a message and exit code 2 on every
// rank rather than a hang.
#include <mpi.h>

#include <functional>
#include <optional>

#include "advisor/auto_redistribute.hpp"
#include "apps/app_options.hpp"
#include "apps/iteration_report.hpp"
#include "io/sweep_plan.hpp"
#include "model/gen_block.hpp"

namespace mheta::apps {

struct AppContext {
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0;
  int ranks = 1;
  AppOptions options;
  model::GenBlock dist;
  io::SweepSettings settings;
  IterationReport* report = nullptr;
  // With --auto: the runtime that moves the rows (apps/app_arrays.hpp starts it).
  std::optional<advisor::AutoRedistributor> runtime;
};

// The app's computation; returns whether its answer matched the serial
// reference (the same value on every rank).
using AppBody = std::function<bool(AppContext&)>;

// Exit codes: 0 PASS, 1 FAIL, 2 bad input or I/O error.
int run_app(int argc, char** argv, const AppSpec& spec, const AppBody& body);

}  // namespace mheta::apps
