#pragma once
// Synthetic programs of any size for benchmarks: a Jacobi-like iteration
// (compute + out-of-core sweep, halo exchange, allreduce) on a cluster whose
// nodes differ in CPU power, memory and disk.
#include <cstdint>

#include "model/cluster.hpp"
#include "model/profile.hpp"

namespace mheta::bench {

model::Profile jacobi_like_profile(int ranks, std::int64_t rows_per_rank, int sections);
model::Cluster mixed_cluster(int ranks);

}  // namespace mheta::bench
