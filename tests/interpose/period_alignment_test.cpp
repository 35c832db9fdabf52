#include "interpose/period_alignment.hpp"

#include <gtest/gtest.h>

#include "model/cluster.hpp"
#include "model/model.hpp"
#include "tests/interpose/captured_periods.hpp"

namespace mheta::interpose {
namespace {

using testing::captured;
using testing::op;
using testing::profile_of;
using testing::Shape;
using testing::shape_of;
using testing::Step;
using testing::uniform_cluster;

// A periodic 1-D domain of `ranks` slabs (particle_drift's step): each
// rank sends a count to its right and left neighbours, then receives
// theirs (tags 10 and 20), after computing for 1 ms plus 0.1 ms a rank.
Step drift_step(int rank, int ranks) {
  const int right = (rank + 1) % ranks;
  const int left = (rank + ranks - 1) % ranks;
  return {1e-3 + 1e-4 * rank,
          {op(model::CommKind::send, right, 10, 4), op(model::CommKind::send, left, 20, 4),
           op(model::CommKind::recv, left, 10, 4), op(model::CommKind::recv, right, 20, 4)}};
}

// Every rank began its capture after its own sends (each at another step):
// every period receives first, and the replay deadlocks. Rotated, every
// period is the step as the ranks that began before their sends captured it.
TEST(PeriodAlignment, PeriodsThatAllReceiveFirstDeadlockAndAreRotatedToTheStep) {
  constexpr int kRanks = 4;
  std::vector<RankRecord> records;
  for (int r = 0; r < kRanks; ++r) records.push_back(captured(r, drift_step(r, kRanks), 7 + 3 * r, 2));
  const auto problem = iterations_misfit(profile_of(records));
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("deadlocks"), std::string::npos) << *problem;

  const PeriodAlignment alignment = align_periods(records);
  EXPECT_TRUE(alignment.aligned) << alignment.problem;
  EXPECT_EQ(alignment.rotated, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_FALSE(iterations_misfit(profile_of(records)));
  for (int r = 0; r < kRanks; ++r) {
    const RankRecord from_the_start = captured(r, drift_step(r, kRanks), 5, 0);
    EXPECT_EQ(shape_of(records[static_cast<std::size_t>(r)].sections), shape_of(from_the_start.sections)) << r;
  }
}

// Ranks that began their captures at different places of the step: the
// model accepts the profile (no wait goes round a cycle), but rank 1's
// period is not the window of ranks 0 and 2, and the prediction is not the
// step's. Aligned, it is.
TEST(PeriodAlignment, PeriodsBegunAtDifferentPlacesPredictTheStepOnceAligned) {
  constexpr int kRanks = 4;
  const int phases[kRanks] = {0, 2, 3, 1};
  std::vector<RankRecord> records, from_the_start;
  for (int r = 0; r < kRanks; ++r) {
    records.push_back(captured(r, drift_step(r, kRanks), 4 + r, phases[r]));
    from_the_start.push_back(captured(r, drift_step(r, kRanks), 4, 0));
  }
  const std::vector<std::int64_t> rows(kRanks, 1);
  const model::Model step(profile_of(from_the_start), uniform_cluster(kRanks));
  const double expected = step.predict(rows).iteration_s;
  {
    const model::Model as_captured(profile_of(records), uniform_cluster(kRanks));
    EXPECT_GT(as_captured.predict(rows).iteration_s, expected * 1.2);
  }
  const PeriodAlignment alignment = align_periods(records);
  EXPECT_TRUE(alignment.aligned) << alignment.problem;
  EXPECT_EQ(alignment.rotated, (std::vector<int>{1, 2, 3}));
  const model::Model aligned(profile_of(records), uniform_cluster(kRanks));
  EXPECT_DOUBLE_EQ(aligned.predict(rows).iteration_s, expected);
}

// Two messages a step on one channel, of 8 and 800 bytes: rank 1 began its
// capture between its two receives, so the model pairs rank 0's 8-byte send
// with rank 1's 800-byte receive. Aligned, each send pairs with its own
// receive.
TEST(PeriodAlignment, TwoMessagesOfAChannelPairWithTheirOwnReceives) {
  const Step sender{1e-3, {op(model::CommKind::send, 1, 0, 8), op(model::CommKind::send, 1, 0, 800)}};
  const Step receiver{1e-3, {op(model::CommKind::recv, 0, 0, 8), op(model::CommKind::recv, 0, 0, 800)}};
  std::vector<RankRecord> records = {captured(0, sender, 3, 0), captured(1, receiver, 9, 1)};
  EXPECT_EQ(std::get<3>(shape_of(records[1].sections).ops[0]), 800);
  const PeriodAlignment alignment = align_periods(records);
  EXPECT_TRUE(alignment.aligned) << alignment.problem;
  EXPECT_EQ(alignment.rotated, (std::vector<int>{1}));
  const Shape received = shape_of(records[1].sections);
  ASSERT_EQ(received.ops.size(), 2u);
  EXPECT_EQ(std::get<3>(received.ops[0]), 8);
  EXPECT_EQ(std::get<3>(received.ops[1]), 800);
  EXPECT_EQ(records[1].channel_starts[0].first, 20);  // the 21st message: step 10's first
}

// Collectives keep one order on every rank: a period that begins between
// two of them is rotated so that every rank's k-th collective is the same.
TEST(PeriodAlignment, CollectivesKeepOneOrderOnEveryRank) {
  model::CommOp allreduce = op(model::CommKind::collective, -1, 0, 8);
  allreduce.collective = model::Collective::allreduce;
  model::CommOp bcast = op(model::CommKind::collective, -1, 0, 64);
  bcast.collective = model::Collective::bcast;
  const Step step{1e-3, {allreduce, bcast}};
  std::vector<RankRecord> records = {captured(0, step, 2, 0), captured(1, step, 6, 1), captured(2, step, 4, 0)};
  ASSERT_TRUE(iterations_misfit(profile_of(records)));  // rank 1's first collective is a bcast
  const PeriodAlignment alignment = align_periods(records);
  EXPECT_TRUE(alignment.aligned) << alignment.problem;
  EXPECT_EQ(alignment.rotated, (std::vector<int>{1}));
  EXPECT_FALSE(iterations_misfit(profile_of(records)));
}

// A loop whose length varies: each rank captured another iteration of it,
// and a longer one before rank 1's held one more collective, so the
// numbers of their messages since MPI_Init agree on a rotation that pairs
// rank 0's first reduction with rank 1's second, which the replay refuses.
// Each period begins at the same collective instead, where their
// collectives lie alike (distances 5 and 3), and fits.
TEST(PeriodAlignment, PeriodsOfALoopWhoseLengthVariesBeginAtTheSameCollective) {
  model::CommOp allreduce = op(model::CommKind::collective, -1, 0, 8);
  allreduce.collective = model::Collective::allreduce;
  const auto step = [&](int peer) {
    return Step{1e-3,
                {op(model::CommKind::send, peer, 5, 8), op(model::CommKind::recv, peer, 5, 8), allreduce,
                 op(model::CommKind::send, peer, 6, 8), op(model::CommKind::recv, peer, 6, 8),
                 op(model::CommKind::send, peer, 7, 8), op(model::CommKind::recv, peer, 7, 8), allreduce}};
  };
  std::vector<RankRecord> records = {captured(0, step(1), 3, 0), captured(1, step(0), 5, 3)};
  for (ChannelStart& c : records[1].channel_starts) {
    if (c.channel.kind == model::CommKind::collective) c.first += 1;
  }
  ASSERT_TRUE(iterations_misfit(profile_of(records)));
  std::vector<RankRecord> by_numbers = records;
  EXPECT_TRUE(align_periods(by_numbers).aligned);
  EXPECT_TRUE(iterations_misfit(profile_of(by_numbers)));
  const PeriodAlignment alignment = align_at_a_collective(records);
  EXPECT_TRUE(alignment.aligned) << alignment.problem;
  EXPECT_TRUE(alignment.at_a_collective);
  EXPECT_FALSE(iterations_misfit(profile_of(records)));
  for (const RankRecord& r : records) {  // both begin at the collective 3 operations after the other
    ASSERT_FALSE(r.sections.empty());
    ASSERT_FALSE(r.sections.front().comm.empty());
    EXPECT_EQ(r.sections.front().comm.front().kind, model::CommKind::collective) << r.rank;
  }
}

// Collectives alike on every rank are no reason to rotate periods whose
// collectives lie differently: then nothing lines them up.
TEST(PeriodAlignment, CollectivesThatLieDifferentlyAreNotLinedUp) {
  model::CommOp allreduce = op(model::CommKind::collective, -1, 0, 8);
  allreduce.collective = model::Collective::allreduce;
  const auto step = [&](int peer, bool late) {
    Step s{1e-3, {op(model::CommKind::send, peer, 5, 8), op(model::CommKind::recv, peer, 5, 8), allreduce,
                  op(model::CommKind::send, peer, 6, 8), op(model::CommKind::recv, peer, 6, 8), allreduce}};
    if (late) std::swap(s.ops[2], s.ops[3]);
    return s;
  };
  std::vector<RankRecord> records = {captured(0, step(1, false), 3, 0), captured(1, step(0, true), 5, 1)};
  for (ChannelStart& c : records[1].channel_starts) {
    if (c.channel.kind == model::CommKind::collective) c.first += 1;
  }
  const Shape before = shape_of(records[1].sections);
  const PeriodAlignment alignment = align_at_a_collective(records);
  EXPECT_FALSE(alignment.aligned);
  EXPECT_FALSE(alignment.at_a_collective);
  EXPECT_EQ(shape_of(records[1].sections), before);
}

// Periods captured from the same place of the step already fit: nothing is
// rotated. A rank idle in the loop (no sections) and one that only computes
// (no message) take no part.
TEST(PeriodAlignment, PeriodsThatFitStayAsCaptured) {
  std::vector<RankRecord> records;
  for (int r = 0; r < 2; ++r) records.push_back(captured(r, drift_step(r, 2), 3 + 5 * r, 0));
  const Shape before = shape_of(records[1].sections);
  RankRecord idle;
  idle.rank = 2;
  idle.complete = true;
  records.push_back(idle);
  records.push_back(captured(3, Step{2e-3, {}}, 4, 0));
  records.back().sections.emplace_back().stages.push_back({2e-3, {}});
  const PeriodAlignment alignment = align_periods(records);
  EXPECT_TRUE(alignment.aligned) << alignment.problem;
  EXPECT_TRUE(alignment.rotated.empty());
  EXPECT_EQ(shape_of(records[1].sections), before);
}

// A master that sent worker 1 two tasks in the period it captured, and a
// worker that received one in its own: no rotation makes them one window,
// and the records stay as captured.
TEST(PeriodAlignment, PeriodsOfDifferentMessagesAreLeftAndSaidWhy) {
  const Step master{1e-4,
                    {op(model::CommKind::send, 1, 1, 8), op(model::CommKind::send, 1, 1, 8),
                     op(model::CommKind::recv, 1, 2, 16), op(model::CommKind::recv, 1, 2, 16)}};
  const Step worker{1e-3, {op(model::CommKind::recv, 0, 1, 8), op(model::CommKind::send, 0, 2, 16)}};
  std::vector<RankRecord> records = {captured(0, master, 2, 1), captured(1, worker, 3, 1)};
  const Shape before = shape_of(records[0].sections);
  const PeriodAlignment alignment = align_periods(records);
  EXPECT_FALSE(alignment.aligned);
  EXPECT_NE(alignment.problem.find("rank 0's captured period sends 2 messages to rank 1 (tag 1) where rank 1's "
                                   "receives 1 message from rank 0"),
            std::string::npos)
      << alignment.problem;
  EXPECT_NE(alignment.problem.find("different iterations"), std::string::npos) << alignment.problem;
  EXPECT_EQ(shape_of(records[0].sections), before);
}

// Records that do not say where their periods began (written before they
// did) are left as they are, with nothing to say.
TEST(PeriodAlignment, PeriodsThatDoNotSayWhereTheyBeganAreLeft) {
  std::vector<RankRecord> records;
  for (int r = 0; r < 2; ++r) records.push_back(captured(r, drift_step(r, 2), 3, 2 * r));
  records[1].channel_starts.clear();
  const Shape before = shape_of(records[1].sections);
  const PeriodAlignment alignment = align_periods(records);
  EXPECT_FALSE(alignment.aligned);
  EXPECT_TRUE(alignment.problem.empty());
  EXPECT_EQ(shape_of(records[1].sections), before);
}

}  // namespace
}  // namespace mheta::interpose
