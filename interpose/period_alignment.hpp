#pragma once
// Lines up the periods the ranks captured on their own (automatic capture,
// docs/interpose.md "Which iteration") so that together they are one
// window of the run: the messages of every channel in a rank's period are
// the same messages as in its peer's. Each rank's capture begins wherever
// its loop let it (after a break, mid-step), so one rank's period may start
// after its sends and its neighbour's before them: the replay then pairs a
// message of one step with one of another, or deadlocks (every rank waiting
// for a message its neighbour sends later in its period). A period is a
// cycle, and any rotation of it is the same loop: each rank's period is
// rotated (from one of its communication operations on) so that, in every
// channel, the numbers of its messages since MPI_Init (message_channels.hpp)
// are the same on both sides, up to whole periods. No MPI: rank 0 runs it
// on the gathered records.
#include <string>
#include <vector>

#include "interpose/profile_assembly.hpp"
#include "model/profile.hpp"

namespace mheta::interpose {

struct PeriodAlignment {
  bool aligned = false;      // the periods hold one window of the run now (perhaps as captured)
  // Each begins at the same one of its collectives (align_at_a_collective),
  // not where the numbers of its messages say.
  bool at_a_collective = false;
  std::vector<int> rotated;  // ranks whose period begins elsewhere now
  // Why no rotation lines them up (empty when aligned, or when a record
  // does not say where its period began).
  std::string problem;
};

// Rotates the periods of the complete records with a period as little as
// it can (the captured start first, rank by rank along the channels); the
// records stay as they are when no rotation lines them up.
PeriodAlignment align_periods(std::vector<RankRecord>& records);

// Rotates every rank's period to begin at the same one of its collectives
// (Aligner::cuts_at_a_collective in the .cpp), whatever the numbers of its
// messages say: for periods that no rotation by the numbers makes one
// window the replay accepts (each rank's period another iteration of a
// loop whose length varies: the numbers differ by no whole number of
// periods, or agree by chance on a rotation that pairs a reduction with
// the next). The records stay as they are where the ranks' periods hold
// their collectives at different places.
PeriodAlignment align_at_a_collective(std::vector<RankRecord>& records);

}  // namespace mheta::interpose
