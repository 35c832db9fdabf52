#include "io/sweep_plan.hpp"

#include "io/memory_budget.hpp"

namespace mheta::io {

SweepSettings sweep_settings(MPI_Comm comm, bool prefetch) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int ranks_on_node = 1;
  MPI_Comm_size(node, &ranks_on_node);
  MPI_Comm_free(&node);
  const MemoryBudget budget = memory_budget(ranks_on_node);
  return {budget.bytes, budget.source, whole_run_forced_out_of_core(), prefetch};
}

std::vector<model::IclaPlan> plan_sweep(std::span<const LocalArray* const> arrays, const SweepSettings& settings) {
  std::vector<model::VariableDemand> demands;
  demands.reserve(arrays.size());
  for (const LocalArray* array : arrays) demands.push_back({array->local_rows(), array->bytes_per_row()});
  std::vector<model::IclaPlan> plans(arrays.size());
  model::plan_iclas(settings.budget_bytes, demands, settings.icla_options(), plans);
  return plans;
}

}  // namespace mheta::io
