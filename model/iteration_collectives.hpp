#pragma once
// The collectives of a profile's iteration, one per call: MPI requires every
// rank to call the same collectives in the same order, so the k-th of every
// rank is one call. Read by `mheta-microbench --profile` (which times them
// at their sizes) and by the check of what the cluster prices them at
// against what they cost the program (collective_prices.hpp).
#include <cstdint>
#include <optional>
#include <vector>

#include "model/collective.hpp"
#include "model/profile.hpp"

namespace mheta::model {

struct IterationCollective {
  Collective op = Collective::barrier;
  // The largest bytes any rank gave it: what the model prices it at
  // (model.cpp, compile_collectives).
  std::int64_t bytes = 0;
  // The smallest time inside over the ranks (CommOp::inside_s): the rank
  // that arrived last waited for nobody, so its time is the collective's
  // cost from the last arrival, as the program paid it. Empty when a rank's
  // is not measured (a virtual clock's capture, a non-blocking one).
  std::optional<double> inside_s;
};

// Empty optional when the ranks do not call the same collectives in the
// same order (the model refuses such a profile, naming the place).
std::optional<std::vector<IterationCollective>> iteration_collectives(const Profile& profile);

}  // namespace mheta::model
