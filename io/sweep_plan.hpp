#pragma once
// Sizing the ICLAs of a program's local arrays with the one shared policy
// (model::plan_iclas), from the memory budget, MHETA_FORCE_OOC and whether
// the program prefetches, so that the model predicting this run and the run
// itself agree on what is out of core and on N_L.
#include <mpi.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "io/local_array.hpp"
#include "model/icla_policy.hpp"

namespace mheta::io {

struct SweepSettings {
  std::uint64_t budget_bytes = 0;
  std::string budget_source;
  bool force_out_of_core = false;
  bool prefetch = false;

  model::IclaOptions icla_options() const { return {force_out_of_core, prefetch ? 2 : 1}; }
};

// The settings of this rank: its memory budget (io/memory_budget.hpp, the
// node's memory shared among the ranks of `comm` on the node) and the
// environment. Collective over `comm`.
SweepSettings sweep_settings(MPI_Comm comm, bool prefetch);

// One plan per array, in order: all the distributed variables the rank
// sweeps together.
std::vector<model::IclaPlan> plan_sweep(std::span<const LocalArray* const> arrays, const SweepSettings& settings);

}  // namespace mheta::io
