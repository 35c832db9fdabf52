#pragma once
// The one rule by which the end of an iteration moves the capture along,
// whoever tells the iterations apart (the program's marks, the k-th call of
// a named function): the iteration before the captured one is run out of
// core already, the captured one is recorded from its start to its end.
#include <cstdint>

#include "interpose/phase.hpp"

namespace mheta::interpose {

enum class BoundaryStep {
  none,
  near,   // the next iteration is the captured one: force out of core now
  begin,  // the captured iteration starts
  end,    // the captured iteration ended
};

// `ended` iterations have ended (0: the run starts), capturing iteration
// `capture_iteration` (1-based), in `phase`.
BoundaryStep step_at_iteration_end(std::int64_t ended, std::int64_t capture_iteration, Phase phase);

}  // namespace mheta::interpose
