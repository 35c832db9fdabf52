// A program without a collective that joins its ranks every iteration
// repeats its iterations overlapped: each rank starts the next one where it
// finished this one, not at a common start. The iteration it repeats is
// then the period of the replay carried on from iteration to iteration
// (docs/model.md, "Iterations that overlap"), which the replay of one
// iteration from a common start (Eq 3-5, the first iteration) can exceed by
// the latencies the overlap hides. Values by hand, iteration by iteration.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "model/model.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

using namespace testing::message_costs;
using testing::compute_stage;

const std::vector<std::int64_t> kRows{100, 100};

Cluster two_nodes() { return testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta); }

// Both ranks send first (eager), then rank 0 computes a and rank 1 b
// around it: rank 0 computes, sends, receives; rank 1 sends, computes,
// receives.
Profile send_first(double a, double b) {
  Profile p = testing::empty_profile({100, 100});
  p.iterations = 10;
  p.ranks[0].sections.push_back(Section{{compute_stage(a)}, {testing::send_to(1, kBytes), testing::recv_from(1, kBytes)}});
  p.ranks[1].sections.push_back(Section{{}, {testing::send_to(0, kBytes)}});
  p.ranks[1].sections.push_back(Section{{compute_stage(b)}, {testing::recv_from(0, kBytes)}});
  return p;
}

TEST(RepeatedIterations, OverlappedIterationsHideTheLatencyTheFirstPays) {
  const double a = 0.01;
  const double b = 0.001;
  const Model model(send_first(a, b), two_nodes());
  ASSERT_FALSE(model.pipelined());
  // Iteration 1 from 0 (Eq 3 on each receive): rank 0's message leaves at
  // a + O->(q) and reaches rank 1 after T_{0->1}; rank 1's reached rank 0
  // long before it receives.
  const double end0 = std::max(a + kSendQ, kSendQ + kTransfer) + kRecv;
  const double end1 = std::max(kSendQ + b, a + kSendQ + kTransfer) + kRecv;
  EXPECT_DOUBLE_EQ(end0, a + kSendQ + kRecv);
  EXPECT_DOUBLE_EQ(end1, a + kSendQ + kTransfer + kRecv);
  // Iteration 2, each rank from its own end: rank 0 from end0, rank 1 from
  // end1. Both move by a + O->(q) + O<-: every iteration after it is this
  // one shifted by that much.
  const double end0_2 = std::max(end0 + a + kSendQ, end1 + kSendQ + kTransfer) + kRecv;
  const double end1_2 = std::max(end1 + kSendQ + b, end0 + a + kSendQ + kTransfer) + kRecv;
  const double period = a + kSendQ + kRecv;
  EXPECT_NEAR(end0_2 - end0, period, 1e-15);
  EXPECT_NEAR(end1_2 - end1, period, 1e-15);

  const Prediction p = model.predict(kRows);
  EXPECT_NEAR(p.first_iteration_s, end1, 1e-15);
  EXPECT_NEAR(p.iteration_s, period, 1e-15);
  EXPECT_LT(p.iteration_s, p.first_iteration_s - 0.9 * kTransfer);
  EXPECT_NEAR(p.run_s, end1 + 9 * period, 1e-12);
  Workspace ws(model);
  EXPECT_EQ(model.iteration_seconds(kRows, ws), p.iteration_s);
  // The repeated iteration's terms: rank 0 never waits, rank 1 waits the
  // rest of the period; each rank's total is the period.
  EXPECT_NEAR(p.ranks[0].compute_s, a, 1e-15);
  EXPECT_NEAR(p.ranks[0].comm_s, kSendQ + kRecv, 1e-15);
  EXPECT_NEAR(p.ranks[0].wait_s, 0.0, 1e-15);
  EXPECT_NEAR(p.ranks[1].compute_s, b, 1e-15);
  EXPECT_NEAR(p.ranks[1].comm_s, kSendQ + kRecv, 1e-15);
  EXPECT_NEAR(p.ranks[1].wait_s, period - (b + kSendQ + kRecv), 1e-15);
  for (const RankBreakdown& r : p.ranks) EXPECT_NEAR(r.total_s, period, 1e-15);
  EXPECT_EQ(p.slowest_rank, 0);  // the one that never waits
  // The first iteration keeps Eq 3's waits, and is followed at the period.
  const Prediction first = model.first_iteration(kRows);
  EXPECT_NEAR(first.ranks[1].wait_s, a + kSendQ + kTransfer - (kSendQ + b), 1e-15);
  EXPECT_NEAR(first.ranks[1].total_s, end1, 1e-15);
  EXPECT_NEAR(first.iteration_s, period, 1e-15);
  EXPECT_EQ(first.slowest_rank, 1);
}

// When one rank's own time, its message's latency included, is longer than
// the other's, nothing overlaps it away: the period is a cycle through both
// ranks, as long as the first iteration.
TEST(RepeatedIterations, APingPongRepeatsItsFirstIteration) {
  Profile p = testing::empty_profile({100, 100});
  p.ranks[0].sections.push_back(Section{{compute_stage(0.02)}, {testing::send_to(1, kBytes), testing::recv_from(1, kBytes)}});
  p.ranks[1].sections.push_back(Section{{}, {testing::recv_from(0, kBytes)}});
  p.ranks[1].sections.push_back(Section{{compute_stage(0.03)}, {testing::send_to(0, kBytes)}});
  const Model model(p, two_nodes());
  // Rank 0: 0.02, sends, waits for the answer: 0.03 of rank 1's compute and
  // two messages later.
  const double round_trip = 0.02 + kSendQ + kTransfer + kRecv + 0.03 + kSendQ + kTransfer + kRecv;
  const Prediction prediction = model.predict(kRows);
  EXPECT_NEAR(prediction.first_iteration_s, round_trip, 1e-15);
  EXPECT_NEAR(prediction.iteration_s, round_trip, 1e-15);
  EXPECT_NEAR(prediction.ranks[1].total_s, round_trip, 1e-15);
  EXPECT_NEAR(prediction.ranks[1].wait_s, round_trip - (0.03 + kSendQ + kRecv), 1e-15);
}

// Messages only to lower ranks: a pipeline the other way round, which never
// shifts both ranks alike when the receiver is the busier one (the sender
// runs ahead, its sends are eager). The period is then the largest of the
// ranks' own paces, taken over the last iterations replayed.
Profile downward(double compute0, double compute1) {
  Profile p = testing::empty_profile({100, 100});
  p.ranks[0].sections.push_back(Section{{compute_stage(compute0)}, {testing::recv_from(1, kBytes)}});
  p.ranks[1].sections.push_back(Section{{compute_stage(compute1)}, {testing::send_to(0, kBytes)}});
  return p;
}

TEST(RepeatedIterations, ASenderRunningAheadLeavesTheReceiversPace) {
  const Model model(downward(0.005, 0.004), two_nodes());
  ASSERT_FALSE(model.pipelined());  // pipelined() is about messages going up
  const Prediction p = model.predict(kRows);
  // First: rank 0 waits for rank 1's message, 0.004 + O->(q) + T_{1->0}.
  EXPECT_NEAR(p.first_iteration_s, 0.004 + kSendQ + kTransfer + kRecv, 1e-15);
  // After it, rank 1 repeats every 0.004 + O->(q) (0.0051 s), ahead of rank
  // 0, whose message is there before it gets to it: 0.005 + O<- (0.0052 s).
  EXPECT_NEAR(p.iteration_s, 0.005 + kRecv, 1e-12);
  EXPECT_NEAR(p.ranks[0].total_s, 0.005 + kRecv, 1e-12);
  EXPECT_NEAR(p.ranks[0].wait_s, 0.0, 1e-12);
  EXPECT_NEAR(p.ranks[1].total_s, 0.004 + kSendQ, 1e-12);
  EXPECT_EQ(p.slowest_rank, 0);
  Workspace ws(model);
  EXPECT_EQ(model.iteration_seconds(kRows, ws), p.iteration_s);
}

TEST(RepeatedIterations, ABusierSenderPacesItsReceiver) {
  const Model model(downward(0.001, 0.004), two_nodes());
  const Prediction p = model.predict(kRows);
  // Rank 0 waits for every message of rank 1: both repeat every 0.004 +
  // O->(q), rank 0 waiting what its own 0.001 + O<- leaves of it.
  const double period = 0.004 + kSendQ;
  EXPECT_NEAR(p.iteration_s, period, 1e-15);
  EXPECT_NEAR(p.ranks[0].wait_s, period - (0.001 + kRecv), 1e-15);
  EXPECT_EQ(p.slowest_rank, 1);
}

// A collective at the end of every rank's iteration starts the next one at a
// common time: the first iteration is the period, as Eq 3-5 give it.
TEST(RepeatedIterations, ACollectiveAtTheEndMakesEveryIterationTheFirst) {
  Profile p = send_first(0.01, 0.001);
  for (RankProfile& rank : p.ranks) rank.sections.back().comm.push_back(testing::collective(Collective::barrier, 0));
  const Model model(p, two_nodes());
  const Prediction prediction = model.predict(kRows);
  EXPECT_NEAR(prediction.first_iteration_s, 0.01 + kSendQ + kTransfer + kRecv, 1e-15);
  EXPECT_EQ(prediction.iteration_s, prediction.first_iteration_s);
  EXPECT_NEAR(prediction.ranks[1].wait_s, 0.01 + kSendQ + kTransfer - (kSendQ + 0.001), 1e-15);
}

// A halo exchange along a chain of 200 ranks whose end rank computes 100
// times longer than the others. Every rank ends up repeating at the end
// rank's own pace, but a rank hears of it only through its neighbours, one
// rank further each iteration: replayed iteration after iteration, the far
// end would settle after some 200. The period comes from the iteration's
// max-plus form instead (docs/model.md, "The period"), and every rank's
// repeated iteration with it.
TEST(RepeatedIterations, ALongChainRepeatsAtItsSlowestRanksPace) {
  constexpr int kRanks = 200;
  const double slow = 0.1;
  const double fast = 0.001;
  Profile p;
  p.program = "chain";
  p.iterations = 10;
  p.distribution.rows.assign(kRanks, 100);
  p.ranks.resize(kRanks);
  for (int r = 0; r < kRanks; ++r) {
    Section s{{compute_stage(r == 0 ? slow : fast)}, {}};
    if (r > 0) s.comm.push_back(testing::send_to(r - 1, kBytes, 0));
    if (r + 1 < kRanks) s.comm.push_back(testing::send_to(r + 1, kBytes, 1));
    if (r > 0) s.comm.push_back(testing::recv_from(r - 1, kBytes, 1));
    if (r + 1 < kRanks) s.comm.push_back(testing::recv_from(r + 1, kBytes, 0));
    p.ranks[static_cast<std::size_t>(r)].sections.push_back(s);
  }
  const Model model(p, testing::uniform_cluster(kRanks, kSend, kRecv, kAlpha, kBeta));
  ASSERT_FALSE(model.pipelined());
  const Prediction prediction = model.predict(p.distribution.rows);
  // Rank 0's own loop, compute, its one send and its one receive, never
  // waiting: its neighbour's message left long before. Any cycle through
  // another rank averages at most (slow + fast + 2 O->(q) + 2 T + 3 O<-) / 2.
  const double period = slow + kSendQ + kRecv;
  ASSERT_GT(period, (slow + fast + 2 * kSendQ + 2 * kTransfer + 3 * kRecv) / 2);
  EXPECT_NEAR(prediction.iteration_s, period, 1e-12);
  Workspace ws(model);
  EXPECT_EQ(model.iteration_seconds(p.distribution.rows, ws), prediction.iteration_s);
  EXPECT_EQ(prediction.slowest_rank, 0);
  EXPECT_NEAR(prediction.ranks[0].wait_s, 0.0, 1e-12);
  // Every rank's repeated iteration is the period, the far end's too: it
  // computes `fast`, sends and receives once and waits the rest.
  for (const RankBreakdown& r : prediction.ranks) EXPECT_NEAR(r.total_s, period, 1e-12);
  const RankBreakdown& last = prediction.ranks.back();
  EXPECT_NEAR(last.compute_s, fast, 1e-12);
  EXPECT_NEAR(last.wait_s, period - (fast + kSendQ + kRecv), 1e-12);
}

}  // namespace
}  // namespace mheta::model
