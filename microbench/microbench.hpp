#pragma once
// The whole characterization, as a library call: every rank of `comm` calls
// it; rank 0 gets the cluster.json document (others an empty one). The
// program mheta-microbench and the tests both run it.
#include <mpi.h>

#include <filesystem>
#include <optional>
#include <string>

#include "microbench/options.hpp"
#include "model/cluster.hpp"
#include "model/json_fields.hpp"

namespace mheta::microbench {

// Share of the budget that has passed when each phase must end.
// The collectives get the largest share: their first round (every rank
// count, operation and size) always completes, and on an oversubscribed
// node it is the slowest.
inline constexpr double kDiskPhaseEnd = 0.25;
inline constexpr double kCpuPhaseEnd = 0.30;
inline constexpr double kNetworkPhaseEnd = 0.55;
inline constexpr double kCollectivePhaseEnd = 1.00;

model::Json run_microbench(const Options& options, MPI_Comm comm);

// The characterization as the model reads it, for a program that measures
// its cluster itself (the advisor): the cluster on rank 0, nothing on the
// others. The cluster.json file is the command line's (mheta-microbench).
std::optional<model::Cluster> measure_cluster(const Options& options, MPI_Comm comm);

// Why `path` cannot be written, or an empty string when it can (checked
// before the budget is spent, not after).
std::string output_problem(const std::filesystem::path& path);
bool writable_directory(const std::filesystem::path& dir);

}  // namespace mheta::microbench
