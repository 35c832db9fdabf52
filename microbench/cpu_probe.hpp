#pragma once
// Relative CPU power from the stencil reference kernel, run by every rank at
// once (as the application would run). Normalised so the slowest rank is 1.
#include <mpi.h>

#include <vector>

#include "microbench/budget.hpp"
#include "microbench/options.hpp"

namespace mheta::microbench {

struct CpuResult {
  // On rank 0 only: per rank.
  std::vector<double> power;
  std::vector<double> power_ci95;
  std::vector<double> kernel_s;  // mean seconds of one reference unit
  int rounds = 0;
};

CpuResult probe_cpu(const Options& options, Budget& budget, MPI_Comm comm);

}  // namespace mheta::microbench
