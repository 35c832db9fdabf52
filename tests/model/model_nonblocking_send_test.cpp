// A non-blocking send's gap runs on the sender's link beside the compute
// that follows its post (docs/model.md, "A non-blocking send's gap"), by
// hand: the sender pays O-> at the post and is held at the completion only
// until the link has put the message out; the link puts out one message at
// a time in post order; the arrival is the link's end plus alpha.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "model/model.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

using testing::compute_stage;
using testing::recv_from;
using testing::send_to;
using namespace testing::message_costs;

constexpr double kGap = kBeta * kBytes;  // q beta: 1 ms
constexpr double kBefore = 0.01;         // rank 0's compute before the post
constexpr double kReceiver = 0.002;      // rank 1's compute before its receive

CommOp isend_to(int peer, std::int64_t bytes, int tag, int completed_section, int completed_comm) {
  CommOp op = send_to(peer, bytes, tag);
  op.nonblocking = true;
  op.completed_section = completed_section;
  op.completed_comm = completed_comm;
  return op;
}

// Rank 0: compute, Isend of q bytes to rank 1, compute c, the wait (before
// section 1's comm: an empty one). Rank 1: compute, the receive.
Profile isend_then_compute(double c, bool nonblocking = true, bool completed = true) {
  Profile p = testing::empty_profile({100, 100});
  CommOp send = nonblocking ? isend_to(1, kBytes, 0, completed ? 1 : -1, 0) : send_to(1, kBytes);
  p.ranks[0].sections.push_back(Section{{compute_stage(kBefore)}, {send}});
  p.ranks[0].sections.push_back(Section{{compute_stage(c)}, {}});
  p.ranks[1].sections.push_back(Section{{compute_stage(kReceiver)}, {recv_from(0, kBytes)}});
  return p;
}

// Messages only go up and there is no collective: a pipeline, whose
// repeated iteration is its busiest rank's own time; the replay of one
// iteration from a common start (Eq 3) is its first.
Prediction replay(const Profile& p) {
  return Model(p, testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta))
      .first_iteration(std::vector<std::int64_t>{100, 100});
}

// The receiver's side is the same however long the sender computes after
// the post: the bytes leave at the post's O->, and arrive q beta + alpha
// later.
void expect_arrival_unchanged(const Prediction& p) {
  const double arrival = kBefore + kSend + kGap + kAlpha;
  EXPECT_DOUBLE_EQ(p.ranks[1].wait_s, arrival - kReceiver);
  EXPECT_DOUBLE_EQ(p.ranks[1].total_s, arrival + kRecv);
}

TEST(NonblockingSend, ComputeLongerThanTheGapHidesIt) {
  const double c = 2 * kGap;  // c >= q beta
  const Prediction p = replay(isend_then_compute(c));
  EXPECT_DOUBLE_EQ(p.ranks[0].total_s, kBefore + kSend + c);  // O-> only
  EXPECT_DOUBLE_EQ(p.ranks[0].comm_s, kSend);
  EXPECT_DOUBLE_EQ(p.ranks[0].compute_s, kBefore + c);
  expect_arrival_unchanged(p);
}

TEST(NonblockingSend, ComputeShorterThanTheGapWaitsTheRest) {
  const double c = 0.4 * kGap;  // c < q beta: waits q beta - c at the completion
  const Prediction p = replay(isend_then_compute(c));
  EXPECT_DOUBLE_EQ(p.ranks[0].total_s, kBefore + kSend + kGap);
  EXPECT_NEAR(p.ranks[0].comm_s, kSend + (kGap - c), 1e-15);
  expect_arrival_unchanged(p);
}

TEST(NonblockingSend, ABlockingSendStillPaysTheWholeGap) {
  const double c = 2 * kGap;
  const Prediction p = replay(isend_then_compute(c, false));
  EXPECT_DOUBLE_EQ(p.ranks[0].total_s, kBefore + kSendQ + c);  // O-> + q beta, then c
  EXPECT_DOUBLE_EQ(p.ranks[0].comm_s, kSendQ);
  expect_arrival_unchanged(p);
}

TEST(NonblockingSend, OneNotCompletedInTheIterationHoldsTheRankAtItsEnd) {
  const double c = 0.4 * kGap;
  const Prediction p = replay(isend_then_compute(c, true, false));
  EXPECT_DOUBLE_EQ(p.ranks[0].total_s, kBefore + kSend + kGap);
  const Prediction hidden = replay(isend_then_compute(2 * kGap, true, false));
  EXPECT_DOUBLE_EQ(hidden.ranks[0].total_s, kBefore + kSend + 2 * kGap);
}

// The per-rank model of the search (its own time, no waits) holds the same:
// O-> then max(c, q beta).
TEST(NonblockingSend, TheRanksOwnTimeOverlapsTheGapToo) {
  const Cluster cluster = testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta);
  const Model hidden(isend_then_compute(2 * kGap), cluster);
  EXPECT_DOUBLE_EQ(hidden.rank_busy_seconds(0, 0, 100), kBefore + kSend + 2 * kGap);
  const Model exposed(isend_then_compute(0.4 * kGap), cluster);
  EXPECT_DOUBLE_EQ(exposed.rank_busy_seconds(0, 0, 100), kBefore + kSend + kGap);
  // Twice the rows: twice the compute after the post, 0.8 q beta, still
  // under the gap; then 4 times, 1.6 q beta, over it.
  EXPECT_DOUBLE_EQ(exposed.rank_busy_seconds(0, 0, 200), 2 * kBefore + kSend + kGap);
  EXPECT_DOUBLE_EQ(exposed.rank_busy_seconds(0, 0, 400), 4 * kBefore + kSend + 4 * 0.4 * kGap);
}

// Two Isends posted back to back leave one after the other: the second's
// bytes start when the first's have left (g > O->), both complete at one
// wait after c; the second message arrives 2 g + alpha after the first
// post's O->.
TEST(NonblockingSend, TheLinkPutsOutOneMessageAtATimeInPostOrder) {
  Profile p = testing::empty_profile({100, 100});
  const double c = 0.5 * kGap;
  p.ranks[0].sections.push_back(Section{{compute_stage(kBefore)}, {isend_to(1, kBytes, 0, 1, 0), isend_to(1, kBytes, 1, 1, 0)}});
  p.ranks[0].sections.push_back(Section{{compute_stage(c)}, {}});
  p.ranks[1].sections.push_back(
      Section{{compute_stage(kReceiver)}, {recv_from(0, kBytes, 0), recv_from(0, kBytes, 1)}});
  const Model model(p, testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta));
  const Prediction r = model.first_iteration(std::vector<std::int64_t>{100, 100});
  const double first_left = kBefore + kSend + kGap;
  const double second_left = first_left + kGap;  // its O-> ended before the first had left
  EXPECT_DOUBLE_EQ(r.ranks[0].total_s, std::max(kBefore + 2 * kSend + c, second_left));
  EXPECT_DOUBLE_EQ(r.ranks[0].total_s, second_left);
  // Rank 1 receives the first at first_left + alpha, the second at
  // second_left + alpha (after the first's O<-, which ends earlier).
  EXPECT_DOUBLE_EQ(r.ranks[1].total_s, second_left + kAlpha + kRecv);
  EXPECT_DOUBLE_EQ(model.rank_busy_seconds(0, 0, 100), second_left);
}

// Isend A, Isend B, wait for A, compute c, wait for B: the first wait holds
// only until A has left, not B; the own time (which knows A's end from the
// gaps posted after it) agrees with the replay.
TEST(NonblockingSend, AWaitForTheFirstOfTwoHoldsOnlyUntilTheFirstHasLeft) {
  Profile p = testing::empty_profile({100, 100});
  const double c = 0.5 * kGap;
  p.ranks[0].sections.push_back(
      Section{{compute_stage(kBefore)}, {isend_to(1, kBytes, 0, 1, 0), isend_to(1, kBytes, 1, 2, 0)}});
  p.ranks[0].sections.push_back(Section{{compute_stage(0)}, {}});  // the wait for A
  p.ranks[0].sections.push_back(Section{{compute_stage(c)}, {}});  // the wait for B after c
  p.ranks[1].sections.push_back(
      Section{{compute_stage(kReceiver)}, {recv_from(0, kBytes, 0), recv_from(0, kBytes, 1)}});
  const Model model(p, testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta));
  const double a_left = kBefore + kSend + kGap;
  const double b_left = a_left + kGap;
  // Held until A has left (after both O->, as g > O->), then c = g / 2,
  // then held until B has left, g after A.
  const Prediction r = model.first_iteration(std::vector<std::int64_t>{100, 100});
  EXPECT_DOUBLE_EQ(r.ranks[0].total_s, b_left);
  // With c = 2 g, B has left before the second wait: a_left + 2 g.
  p.ranks[0].sections[2].stages[0].compute_s = 2 * kGap;
  const Model longer(p, testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta));
  EXPECT_DOUBLE_EQ(longer.first_iteration(std::vector<std::int64_t>{100, 100}).ranks[0].total_s, a_left + 2 * kGap);
  EXPECT_DOUBLE_EQ(longer.rank_busy_seconds(0, 0, 100), a_left + 2 * kGap);
  EXPECT_DOUBLE_EQ(model.rank_busy_seconds(0, 0, 100), b_left);
}

// A blocking send after a non-blocking one waits for the link to put the
// first out before its own bytes leave (the emulated link does the same).
TEST(NonblockingSend, ABlockingSendAfterOneWaitsForTheLink) {
  Profile p = testing::empty_profile({100, 100});
  p.ranks[0].sections.push_back(Section{{compute_stage(kBefore)}, {isend_to(1, kBytes, 0, 0, 2), send_to(1, kBytes, 1)}});
  p.ranks[1].sections.push_back(
      Section{{compute_stage(kReceiver)}, {recv_from(0, kBytes, 0), recv_from(0, kBytes, 1)}});
  const Prediction r = replay(p);
  const double second_left = kBefore + kSend + 2 * kGap;
  EXPECT_DOUBLE_EQ(r.ranks[0].total_s, second_left);
  // All of it is sending: the Isend's O->, the Send's O->, its wait for the
  // link (g - O->) and its own gap.
  EXPECT_NEAR(r.ranks[0].comm_s, kSend + 2 * kGap, 1e-15);
  EXPECT_DOUBLE_EQ(r.ranks[1].total_s, second_left + kAlpha + kRecv);
}

// A pipeline repeats at its busiest rank's own time, in which the gap of a
// non-blocking send is hidden by the compute after it.
TEST(NonblockingSend, APipelinesPaceCountsOnlyTheGapNotHidden) {
  const Cluster cluster = testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta);
  const std::vector<std::int64_t> rows{100, 100};
  const Model hidden(isend_then_compute(2 * kGap), cluster);
  ASSERT_TRUE(hidden.pipelined());
  EXPECT_DOUBLE_EQ(hidden.predict(rows).iteration_s, kBefore + kSend + 2 * kGap);
  const Model blocking(isend_then_compute(2 * kGap, false), cluster);
  EXPECT_DOUBLE_EQ(blocking.predict(rows).iteration_s, kBefore + kSendQ + 2 * kGap);
}

}  // namespace
}  // namespace mheta::model
