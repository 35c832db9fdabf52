#include "interpose/capture_boundary.hpp"

namespace mheta::interpose {

BoundaryStep step_at_iteration_end(std::int64_t ended, std::int64_t capture_iteration, Phase phase) {
  if (ended == capture_iteration - 2) return BoundaryStep::near;
  if (ended == capture_iteration - 1 && phase == Phase::waiting) return BoundaryStep::begin;
  if (ended == capture_iteration && phase == Phase::capturing) return BoundaryStep::end;
  return BoundaryStep::none;
}

}  // namespace mheta::interpose
