#include "interpose/timeline.hpp"

#include <gtest/gtest.h>

namespace mheta::interpose {
namespace {

model::CommOp send_to(int peer, std::int64_t bytes) {
  model::CommOp op;
  op.kind = model::CommKind::send;
  op.peer = peer;
  op.bytes = bytes;
  return op;
}

TEST(Timeline, ComputeAfterCommunicationOpensTheNextSection) {
  Timeline t;
  t.add_compute(0.010);
  t.add_comm(send_to(1, 8));
  t.add_compute(0.020);
  t.add_comm(send_to(1, 16));
  ASSERT_EQ(t.sections().size(), 2u);
  EXPECT_DOUBLE_EQ(t.sections()[0].stages[0].compute_s, 0.010);
  EXPECT_DOUBLE_EQ(t.sections()[1].stages[0].compute_s, 0.020);
  EXPECT_EQ(t.sections()[1].comm[0].bytes, 16);
}

model::CommOp recv_from(int peer, std::int64_t bytes) {
  model::CommOp op = send_to(peer, bytes);
  op.kind = model::CommKind::recv;
  return op;
}

Timeline::CommRef post_isend(Timeline& t, int peer, std::int64_t bytes) {
  model::CommOp isend = send_to(peer, bytes);
  isend.nonblocking = true;
  return t.add_comm(isend);
}

TEST(Timeline, ShortGapsBetweenMessagesKeepOneCommunicationPoint) {
  Timeline t;
  t.add_compute(0.010);
  post_isend(t, 1, 8);
  t.add_compute(Timeline::kMinSectionCompute / 4);  // Isend ... Isend ... Waitall
  post_isend(t, 2, 8);
  ASSERT_EQ(t.sections().size(), 1u);
  EXPECT_EQ(t.sections()[0].comm.size(), 2u);
  EXPECT_DOUBLE_EQ(t.total_compute(), 0.010 + Timeline::kMinSectionCompute / 4);
}

// A ping-pong's reply: sent at once, then the next step computed before
// the next receive. That compute is after the blocking send, however
// short: ahead of it, it would hold the reply back by that long.
TEST(Timeline, ComputeAfterABlockingSendStaysAfterIt) {
  Timeline t;
  t.add_compute(0.010);
  t.add_comm(send_to(1, 8));
  t.add_compute(Timeline::kMinSectionCompute / 2);
  t.add_comm(recv_from(1, 8));
  ASSERT_EQ(t.sections().size(), 2u);
  EXPECT_DOUBLE_EQ(t.sections()[0].stages[0].compute_s, 0.010);
  EXPECT_EQ(t.sections()[0].comm.size(), 1u);
  EXPECT_DOUBLE_EQ(t.sections()[1].stages[0].compute_s, Timeline::kMinSectionCompute / 2);
  EXPECT_EQ(t.sections()[1].comm[0].kind, model::CommKind::recv);
}

// Isend, Irecv (not recorded until it completes), the interior's compute,
// Waitall (the send's completion, then the receive), the boundary's
// compute: the completion is before the receive, and the compute after it
// is a section of its own, however short.
TEST(Timeline, ASendsCompletionIsRecordedWithItAndEndsTheComputeBeforeIt) {
  Timeline t;
  t.add_compute(0.001);
  const Timeline::CommRef sent = post_isend(t, 1, 4096);
  t.add_compute(0.005);
  const Timeline::Place wait = t.here();
  EXPECT_EQ(wait.section, 1);
  EXPECT_EQ(wait.comm, 0);
  t.complete(sent, wait);
  t.add_comm(recv_from(1, 4096));
  t.add_compute(Timeline::kMinSectionCompute / 4);
  ASSERT_EQ(t.sections().size(), 3u);
  const model::CommOp& recorded = t.sections()[0].comm[0];
  EXPECT_TRUE(recorded.nonblocking);
  EXPECT_EQ(recorded.completed_section, 1);
  EXPECT_EQ(recorded.completed_comm, 0);
  EXPECT_DOUBLE_EQ(t.sections()[1].stages[0].compute_s, 0.005);
  EXPECT_DOUBLE_EQ(t.sections()[2].stages[0].compute_s, Timeline::kMinSectionCompute / 4);
}

// Completed with nothing recorded since: the compute after the wait still
// opens its own section (without the completion it would join the
// compute before the send: a short gap after sends only).
TEST(Timeline, ComputeAfterASendsCompletionNeverMovesAheadOfIt) {
  Timeline t;
  t.add_compute(0.001);
  const Timeline::CommRef sent = post_isend(t, 1, 64);
  t.complete(sent, t.here());
  t.add_compute(Timeline::kMinSectionCompute / 4);
  ASSERT_EQ(t.sections().size(), 2u);
  EXPECT_EQ(t.sections()[0].comm[0].completed_section, 0);
  EXPECT_EQ(t.sections()[0].comm[0].completed_comm, 1);
  EXPECT_DOUBLE_EQ(t.sections()[0].stages[0].compute_s, 0.001);
}

// A request posted in one capture and completed in the next names a send
// of the first: nothing of the second is marked.
TEST(Timeline, ACompletionOfASendOfAnotherCaptureChangesNothing) {
  Timeline first;
  const Timeline::CommRef sent = post_isend(first, 1, 64);
  Timeline second;
  post_isend(second, 1, 64);
  second.complete(sent, second.here());
  EXPECT_EQ(second.sections()[0].comm[0].completed_section, -1);
  second.add_compute(Timeline::kMinSectionCompute / 4);
  EXPECT_EQ(second.sections().size(), 1u);  // not a completion: the short gap stays before the send
}

TEST(Timeline, ShortComputeAfterAReceiveStaysAfterIt) {
  // A wavefront stage: receive a block, relax it briefly, send it on.
  Timeline t;
  for (int block = 0; block < 3; ++block) {
    t.add_comm(recv_from(0, 128));
    t.add_compute(Timeline::kMinSectionCompute / 4);
    t.add_comm(send_to(2, 128));
  }
  // The first receive opens a section of no compute; every block's compute
  // then opens its own, ahead of its send and the next block's receive.
  ASSERT_EQ(t.sections().size(), 4u);
  EXPECT_EQ(t.sections()[0].comm.size(), 1u);
  for (std::size_t s = 1; s < 4; ++s) {
    EXPECT_DOUBLE_EQ(t.sections()[s].stages[0].compute_s, Timeline::kMinSectionCompute / 4);
    EXPECT_EQ(t.sections()[s].comm[0].kind, model::CommKind::send);
  }
  EXPECT_EQ(t.sections()[3].comm.size(), 1u);
}

// The wavefront's first rank: each block's receive is from MPI_PROC_NULL
// (no message), its relaxation is short, its send goes to rank 1 (posted
// non-blocking: after a blocking send the compute keeps its place
// anyway). Every block keeps its own section, as after a receive; without
// the receive from nobody the short gaps after posted sends only would
// put all the compute ahead of all the sends.
TEST(Timeline, ShortComputeAfterAReceiveFromNobodyStaysAfterIt) {
  Timeline t;
  for (int block = 0; block < 3; ++block) {
    t.receive_from_nobody();
    t.add_compute(Timeline::kMinSectionCompute / 4);
    post_isend(t, 1, 128);
  }
  ASSERT_EQ(t.sections().size(), 3u);
  for (const model::Section& s : t.sections()) {
    EXPECT_DOUBLE_EQ(s.stages[0].compute_s, Timeline::kMinSectionCompute / 4);
    ASSERT_EQ(s.comm.size(), 1u);
    EXPECT_EQ(s.comm[0].kind, model::CommKind::send);
  }
  Timeline merged;  // the same without the receives
  for (int block = 0; block < 3; ++block) {
    merged.add_compute(Timeline::kMinSectionCompute / 4);
    post_isend(merged, 1, 128);
  }
  EXPECT_EQ(merged.sections().size(), 1u);
}

// One period of a loop: compute, a read of variable 0, a send.
Timeline period(double compute_s, double read_s, std::int64_t bytes = 64) {
  Timeline t;
  t.add_compute(compute_s);
  t.add_io(0, false, 4096, read_s, false);
  t.add_comm(send_to(1, bytes));
  return t;
}

TEST(Timeline, MedianOfPeriodsTakesEachStagesMedianOverPeriodsAlike) {
  // Five periods of one loop, one of them slow; a sixth whose message
  // differs (another shape) is left out.
  const std::vector<Timeline> periods = {period(0.010, 0.001), period(0.030, 0.004), period(0.011, 0.002),
                                         period(0.012, 0.003), period(0.009, 0.002), period(1.0, 1.0, 128)};
  const Timeline t = Timeline::median_of(periods);
  ASSERT_EQ(t.sections().size(), 1u);
  EXPECT_DOUBLE_EQ(t.sections()[0].stages[0].compute_s, 0.011);  // of 0.009 0.010 0.011 0.012 0.030
  EXPECT_DOUBLE_EQ(t.sections()[0].stages[0].io[0].reads.seconds, 0.002);
  EXPECT_EQ(t.sections()[0].stages[0].io[0].reads.count, 1);
  EXPECT_EQ(t.sections()[0].comm[0].bytes, 64);
  EXPECT_DOUBLE_EQ(t.total_compute(), 0.011);
  // One period is itself; an even count takes the middle two's mean.
  EXPECT_DOUBLE_EQ(Timeline::median_of({period(0.020, 0.001)}).sections()[0].stages[0].compute_s, 0.020);
  EXPECT_DOUBLE_EQ(Timeline::median_of({period(0.020, 0.001), period(0.010, 0.003)}).sections()[0].stages[0]
                       .io[0].reads.seconds, 0.002);
  EXPECT_TRUE(Timeline::median_of({}).empty());
}

TEST(Timeline, LaterTimeOfAWriteJoinsItsRecordNotTheCount) {
  Timeline t;
  const Timeline::IoRef write = t.add_io(0, true, 4096, 0.001, false);
  t.add_compute(0.010);
  t.add_io(1, false, 4096, 0.002, false);
  t.add_io_seconds(write, true, 0.003);  // a sync, or an emulated late completion
  const model::IoStats& stats = t.sections()[0].stages[0].io[0].writes;
  EXPECT_EQ(stats.count, 1);
  EXPECT_EQ(stats.bytes, 4096);
  EXPECT_DOUBLE_EQ(stats.seconds, 0.004);
  EXPECT_DOUBLE_EQ(t.sections()[0].stages[0].io[1].reads.seconds, 0.002);
  t.add_io_seconds({.section = 5, .stage = 0, .io = 0}, true, 1.0);  // a stale reference is ignored
  EXPECT_DOUBLE_EQ(stats.seconds, 0.004);
}

TEST(Timeline, IoAfterCommunicationOpensTheNextSection) {
  Timeline t;
  t.add_comm(send_to(1, 8));
  t.add_io(0, false, 100, 0.001, false);
  ASSERT_EQ(t.sections().size(), 2u);
  EXPECT_EQ(t.sections()[1].stages[0].io[0].reads.bytes, 100);
}

TEST(Timeline, StageMarksSubdivideASection) {
  Timeline t;
  t.add_compute(0.004);
  t.mark_stage();
  t.add_compute(0.006);
  t.add_io(1, true, 64, 0.002, false);
  t.mark_stage();
  t.mark_stage();  // a second mark in a row opens no empty stage
  t.add_compute(0.001);
  ASSERT_EQ(t.sections().size(), 1u);
  const auto& stages = t.sections()[0].stages;
  ASSERT_EQ(stages.size(), 3u);
  EXPECT_DOUBLE_EQ(stages[1].compute_s, 0.006);
  EXPECT_EQ(stages[1].io[0].writes.count, 1);
  EXPECT_DOUBLE_EQ(stages[2].compute_s, 0.001);
}

TEST(Timeline, ReadsAndWritesOfAVariableAccumulateAndPrefetchesStayApart) {
  Timeline t;
  t.add_io(0, false, 100, 0.001, false);
  t.add_io(0, false, 50, 0.002, false);
  t.add_io(0, true, 30, 0.004, false);
  const auto ref = t.add_io(0, false, 70, 0.003, true);
  t.add_overlap(ref, 0.005);
  const auto& io = t.sections()[0].stages[0].io;
  ASSERT_EQ(io.size(), 2u);
  EXPECT_EQ(io[0].reads.count, 2);
  EXPECT_EQ(io[0].reads.bytes, 150);
  EXPECT_DOUBLE_EQ(io[0].reads.seconds, 0.003);
  EXPECT_EQ(io[0].writes.bytes, 30);
  EXPECT_TRUE(io[1].prefetch);
  EXPECT_DOUBLE_EQ(io[1].overlap_compute_s, 0.005);
}

// T_A runs from the prefetch's issue to its wait, or to the rank's first
// blocking request after the issue: the disk serves that one after the
// prefetch, and the compute after it overlaps nothing.
TEST(Timeline, APrefetchsOverlapEndsAtTheFirstBlockingRequestAfterItsIssue) {
  Timeline t;
  t.add_compute(0.010);
  t.blocking_io();  // before the issue: no part of it
  t.add_compute(0.002);
  const Timeline::OverlapStart issued = t.overlap_start();
  t.add_compute(0.003);
  EXPECT_DOUBLE_EQ(t.overlap_since(issued), 0.003);  // only compute so far
  t.blocking_io();
  t.add_compute(0.004);
  t.blocking_io();
  t.add_compute(0.005);
  EXPECT_DOUBLE_EQ(t.overlap_since(issued), 0.003);
  EXPECT_DOUBLE_EQ(t.overlap_since(t.overlap_start()), 0.0);
}

// Where the period began in each channel: the number of the first message
// of each recorded in it; the ones after it and those without a number
// change nothing.
TEST(Timeline, KeepsTheNumberOfEachChannelsFirstMessage) {
  Timeline t;
  t.add_comm(send_to(1, 8), 12);
  t.add_comm(recv_from(1, 8), 30);
  t.add_comm(send_to(1, 8), 13);
  t.add_comm(send_to(2, 8));
  ASSERT_EQ(t.channel_starts().size(), 2u);
  EXPECT_EQ(t.channel_starts()[0].channel, (Channel{model::CommKind::send, 1, 0}));
  EXPECT_EQ(t.channel_starts()[0].first, 12);
  EXPECT_EQ(t.channel_starts()[1].channel, (Channel{model::CommKind::recv, 1, 0}));
  EXPECT_EQ(t.channel_starts()[1].first, 30);
  EXPECT_EQ(Timeline::median_of({t, Timeline{}}).channel_starts()[0].first, 12);
}

}  // namespace
}  // namespace mheta::interpose
