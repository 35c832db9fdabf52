// `mheta run`'s in-core compute from the run's own iterations
// (cli/run_compute_level.hpp): which runs record it, and which ranks'
// records are of the captured loop.
#include <gtest/gtest.h>

#include <vector>

#include "cli/run_compute_level.hpp"

namespace mheta::cli {
namespace {

// Ranks with `counts[r]` recorded iterations after the setup's record.
model::Accounting records_of(const std::vector<int>& counts) {
  model::Accounting run;
  for (int count : counts) run.ranks.emplace_back(static_cast<std::size_t>(count) + 1, model::IterationTerms{});
  return run;
}

model::Profile profile_of(int ranks, std::int64_t iterations) {
  model::Profile p;
  p.iterations = iterations;
  p.ranks.resize(static_cast<std::size_t>(ranks));
  for (model::RankProfile& rank : p.ranks) rank.in_core_compute_s = 1e-3;
  return p;
}

TEST(RunComputeLevel, RanksThatEndedTheirIterationsElsewhereAreForgotten) {
  // A wavefront of 250 iterations: the middle ranks recorded 256 (within a
  // tenth), the boundary ranks 401 and 455 (their boundary call comes more
  // often than once an iteration).
  model::Profile p = profile_of(4, 250);
  EXPECT_EQ(forget_ranks_of_another_loop(p, records_of({455, 256, 256, 401})), 2);
  EXPECT_FALSE(p.ranks[0].in_core_compute_s);
  EXPECT_TRUE(p.ranks[1].in_core_compute_s);
  EXPECT_TRUE(p.ranks[2].in_core_compute_s);
  EXPECT_FALSE(p.ranks[3].in_core_compute_s);
}

TEST(RunComputeLevel, WithoutTheRunsCountTheRanksMedianDecides) {
  // iterations 1: the profile does not know the run's count.
  model::Profile p = profile_of(3, 1);
  EXPECT_EQ(forget_ranks_of_another_loop(p, records_of({100, 104, 60})), 1);
  EXPECT_TRUE(p.ranks[0].in_core_compute_s);
  EXPECT_TRUE(p.ranks[1].in_core_compute_s);
  EXPECT_FALSE(p.ranks[2].in_core_compute_s);
}

TEST(RunComputeLevel, IterationsCountedByAnotherLoopFirstAreNotExpected) {
  // 12 iterations of the loop captured; rank 0 counted an inner loop
  // until its 5th, so its records hold 7 of them (rank 1: all 12). A
  // rank that skipped none yet recorded 7 ended its iterations elsewhere.
  model::Profile p = profile_of(3, 12);
  model::Accounting run = records_of({7, 12, 7});
  run.skipped = {5, 0, 0};
  EXPECT_EQ(forget_ranks_of_another_loop(p, run), 1);
  EXPECT_TRUE(p.ranks[0].in_core_compute_s);
  EXPECT_TRUE(p.ranks[1].in_core_compute_s);
  EXPECT_FALSE(p.ranks[2].in_core_compute_s);
}

TEST(RunComputeLevel, RecordedWhereTheIterationsAreWholeAndSampledOnTheWallClock) {
  EXPECT_TRUE(records_run_compute("auto"));
  EXPECT_TRUE(records_run_compute("mark"));
  EXPECT_TRUE(records_run_compute("call:MPI_Allreduce:2"));
  EXPECT_FALSE(records_run_compute("off"));
  EXPECT_FALSE(records_run_compute("pcontrol"));  // a bracket, not a whole iteration
  EXPECT_EQ(run_record_samples("HY1", ""), 0);     // every iteration: the wrappers see every call anyway
  EXPECT_EQ(run_record_samples("", "virtual"), 0);
  EXPECT_EQ(run_record_samples("HY1", "wall"), 64);
  EXPECT_EQ(run_record_samples("", ""), 64);
}

}  // namespace
}  // namespace mheta::cli
