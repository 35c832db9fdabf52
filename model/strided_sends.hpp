#pragma once
// Sends of non-contiguous datatypes in a profile (model::CommOp::segments),
// which the model prices by the cluster's cost of a block (docs/model.md,
// "Messages of non-contiguous datatypes"): the user is told where the
// cluster has none.
#include <cstddef>
#include <cstdint>
#include <string>

#include "model/cluster.hpp"
#include "model/profile.hpp"

namespace mheta::model {

// The captured iteration's sends, over every rank, whose data lies in more
// than one contiguous block, and those blocks in all.
struct StridedSends {
  std::size_t sends = 0;
  std::int64_t segments = 0;
};
StridedSends strided_sends(const Profile& profile);

// What a user should know of a wall-clock profile with such sends on a
// cluster that prices no block (a file measured before the microbenchmark
// measured it), or "" (none of either, or a profile of the virtual clock,
// whose emulated network prices a message by its bytes whatever its
// datatype).
std::string strided_send_warning(const Profile& profile, const Cluster& cluster);

}  // namespace mheta::model
