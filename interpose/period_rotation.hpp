#pragma once
// A captured period as if its capture had begun at another of its
// communication operations: a period is a cycle, and any rotation of it is
// the same loop (period_alignment.hpp lines the ranks' periods up with it).
// No MPI.
#include <vector>

#include "model/profile.hpp"

namespace mheta::interpose {

// The period `sections` as if captured from its `cut`-th communication
// operation (counted over all sections, from 0: as captured) on, as the
// timeline would have recorded it: the operations and stages before that
// one go to its end, the stages that ended the period join those of its
// first section, and each non-blocking send's completion place follows it
// (none when the rotation puts the completion before the send: it
// completes in the next period).
std::vector<model::Section> rotate_period(const std::vector<model::Section>& sections, int cut);

}  // namespace mheta::interpose
