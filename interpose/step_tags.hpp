#pragma once
// Pairs the messages of ranks that captured different steps of a loop
// whose tags change from step to step (the step number as the tag, or
// tags that take turns). The model pairs the k-th send of a channel
// (source, destination, tag) with its k-th receive, so a sender's period
// of step 50 and its receiver's of step 51 hold no message in common, and
// the profile cannot be replayed. When, between two ranks, the tags one
// receives are the tags the other sends, all moved by one amount, the
// receiver's are moved back: a period is any one iteration of the loop,
// and these are the same messages one iteration apart. No MPI: rank 0 runs
// it on the gathered records, before the periods are lined up
// (period_alignment.hpp).
#include <vector>

#include "interpose/profile_assembly.hpp"

namespace mheta::interpose {

// Moves the tags of the complete records' receives; the number of
// (sender, receiver) pairs whose tags it moved.
int pair_step_tags(std::vector<RankRecord>& records);

}  // namespace mheta::interpose
