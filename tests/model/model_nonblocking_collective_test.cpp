// A non-blocking collective (CommOp::nonblocking on a collective): posted,
// the rank goes on computing, and the call that completes it waits for its
// result, there at the latest post plus the collective's cost (docs/model.md,
// "Non-blocking collectives"). Recorded as blocking where it was posted,
// the overlap was lost: every rank waited at the post for the last one,
// then paid the cost, then computed. By hand, on a cluster without message
// costs, an allreduce of cost C: rank r computes a_r, posts, computes b_r
// and waits.
#include <gtest/gtest.h>

#include <vector>

#include "model/model.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

using testing::collective;
using testing::compute_stage;

constexpr double kCost = 0.3e-3;                         // C
const std::vector<double> kBefore{1e-3, 2e-3, 1.5e-3};   // a_r: before the post
const std::vector<double> kAfter{0.5e-3, 0.2e-3, 1e-3};  // b_r: between the post and the wait
constexpr double kTolerance = 1e-12;

Cluster cluster(int ranks) {
  Cluster c = testing::uniform_cluster(ranks, 0, 0, 0, 0);
  c.network.collectives[static_cast<std::size_t>(Collective::allreduce)] = CollectiveCurve{.c0 = kCost};
  return c;
}

// Section 0: a_r, then the allreduce; section 1: b_r. `completed`: where
// the wait is recorded (after section 1's operations), else nowhere: not
// completed in the iteration; `nonblocking` false: recorded as a blocking
// allreduce, where it was posted.
Profile overlapped(bool nonblocking, bool completed) {
  const auto ranks = kBefore.size();
  Profile p = testing::empty_profile({});
  p.distribution.rows.assign(ranks, 100);
  p.ranks.resize(ranks);
  for (std::size_t r = 0; r < ranks; ++r) {
    CommOp sums = collective(Collective::allreduce, 16);
    sums.nonblocking = nonblocking;
    if (nonblocking && completed) {
      sums.completed_section = 1;
      sums.completed_comm = 0;
    }
    p.ranks[r].sections.push_back(Section{{compute_stage(kBefore[r])}, {sums}});
    p.ranks[r].sections.push_back(Section{{compute_stage(kAfter[r])}, {}});
  }
  return p;
}

const std::vector<std::int64_t> kCaptured{100, 100, 100};

// The latest post is rank 1's, at a_1 = 2 ms; the result is there at
// 2.3 ms. Ranks 0 and 1 reached their waits before (1.5, 2.2 ms) and
// leave then; rank 2 reaches its wait at a_2 + b_2 = 2.5 ms, after it.
TEST(NonblockingCollective, TheWaitEndsAtTheLatestPostPlusTheCost) {
  const Prediction p = Model(overlapped(true, true), cluster(3)).first_iteration(kCaptured);
  const double done = kBefore[1] + kCost;
  EXPECT_NEAR(p.ranks[0].total_s, done, kTolerance);
  EXPECT_NEAR(p.ranks[1].total_s, done, kTolerance);
  EXPECT_NEAR(p.ranks[2].total_s, kBefore[2] + kAfter[2], kTolerance);
  // Rank 0 waited 0.8 ms in its wait: the cost's 0.3 is communication,
  // the rest waiting; rank 2 found the result there.
  EXPECT_NEAR(p.ranks[0].comm_s, kCost, kTolerance);
  EXPECT_NEAR(p.ranks[0].wait_s, done - (kBefore[0] + kAfter[0]) - kCost, kTolerance);
  EXPECT_NEAR(p.ranks[2].comm_s + p.ranks[2].wait_s, 0.0, kTolerance);
  // Blocking where it was posted: everyone leaves the allreduce at 2.3 ms
  // and then computes b_r; rank 2 ends at 3.3 ms.
  const Prediction blocking = Model(overlapped(false, false), cluster(3)).first_iteration(kCaptured);
  EXPECT_NEAR(blocking.ranks[2].total_s, done + kAfter[2], kTolerance);
}

// Not completed in the iteration (the period ended before its wait): the
// rank is held for it at the iteration's end, which here is the same place.
TEST(NonblockingCollective, NotCompletedInTheIterationItIsWaitedForAtItsEnd) {
  const Prediction p = Model(overlapped(true, false), cluster(3)).first_iteration(kCaptured);
  EXPECT_NEAR(p.ranks[0].total_s, kBefore[1] + kCost, kTolerance);
  EXPECT_NEAR(p.ranks[2].total_s, kBefore[2] + kAfter[2], kTolerance);
}

// Iterations carried on: rank 2's own a + b = 2.5 ms is the longest cycle
// (rank 1's post to its result and back, a_1 + C, is 2.3 ms; through the
// others' posts, (a_1 + C + a_2 + C) / 2 = 2.05 ms), so the period is 2.5 ms.
// Blocking, each iteration is C plus the longest a_r + b_r: 2.8 ms.
TEST(NonblockingCollective, ThePeriodIsTheLongestCycle) {
  EXPECT_NEAR(Model(overlapped(true, true), cluster(3)).predict(kCaptured).iteration_s, kBefore[2] + kAfter[2],
              kTolerance);
  EXPECT_NEAR(Model(overlapped(false, false), cluster(3)).predict(kCaptured).iteration_s,
              kCost + kBefore[2] + kAfter[2], kTolerance);
}

// The search evaluates distributions on a tape re-weighted for the rows
// (model/replay.cpp, reweight_rank): the wait's maximum must give what a
// replay of the same rows gives, whichever rows the tape was made for.
TEST(NonblockingCollective, TheReweightedTapeGivesTheReplaysTimes) {
  const Profile p = overlapped(true, true);
  const Model model(p, cluster(3));
  const std::vector<std::int64_t> other{150, 50, 100};
  Workspace fresh(model);
  const double expected = model.iteration_seconds(other, fresh);
  Workspace reused(model);
  model.iteration_seconds(kCaptured, reused);
  EXPECT_DOUBLE_EQ(model.iteration_seconds(other, reused), expected);
  // Rank 0 now computes 1.5 + 0.75 ms, rank 1 1 + 0.1 ms: rank 0's post
  // (1.5 ms) is the latest, its result there at 1.8 ms; rank 0's own 2.25
  // and rank 2's 2.5 ms are the cycles, and rank 2's the longest.
  EXPECT_NEAR(expected, kBefore[2] + kAfter[2], kTolerance);
}

// One rank: the result is there C after its own post.
TEST(NonblockingCollective, OneRankWaitsForItsOwnPostPlusTheCost) {
  Profile p = testing::empty_profile({100});
  CommOp sums = collective(Collective::allreduce, 16);
  sums.nonblocking = true;
  sums.completed_section = 1;
  sums.completed_comm = 0;
  p.ranks[0].sections.push_back(Section{{compute_stage(1e-3)}, {sums}});
  p.ranks[0].sections.push_back(Section{{compute_stage(0.1e-3)}, {}});
  const Model model(p, cluster(1));
  const std::vector<std::int64_t> rows{100};
  EXPECT_NEAR(model.first_iteration(rows).ranks[0].total_s, 1e-3 + kCost, kTolerance);
  EXPECT_NEAR(model.predict(rows).iteration_s, 1e-3 + kCost, kTolerance);
}

}  // namespace
}  // namespace mheta::model
