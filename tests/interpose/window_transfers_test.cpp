#include "interpose/window_transfers.hpp"

#include <gtest/gtest.h>

#include "interpose/timeline.hpp"
#include "tests/interpose/captured_periods.hpp"

namespace mheta::interpose {
namespace {

using testing::op;

model::CommOp barrier() {
  model::CommOp o;
  o.kind = model::CommKind::collective;
  o.collective = model::Collective::barrier;
  return o;
}

model::CommOp put_to(int target, std::int64_t bytes) {
  model::CommOp o = op(model::CommKind::send, target, kWindowTag, bytes);
  o.nonblocking = true;
  return o;
}

// What the runtime records of a fence: the epoch's transfers completed
// where the fence is, then a barrier.
void fence(Timeline& t, const std::vector<Timeline::CommRef>& epoch) {
  const Timeline::Place here = t.here();
  for (const Timeline::CommRef& transfer : epoch) t.complete(transfer, here);
  t.add_comm(barrier());
}

RankRecord record_of(int rank, const Timeline& t) {
  RankRecord r;
  r.rank = rank;
  r.complete = true;
  r.sections = t.sections();
  return r;
}

// A halo step over one-sided windows: a fence, 1 ms of compute, a put of
// `bytes` to each of `targets`, the fence that ends their epoch.
RankRecord halo_step(int rank, const std::vector<int>& targets, std::int64_t bytes) {
  Timeline t;
  fence(t, {});
  t.add_compute(1e-3);
  std::vector<Timeline::CommRef> epoch;
  for (int target : targets) epoch.push_back(t.add_comm(put_to(target, bytes)));
  fence(t, epoch);
  return record_of(rank, t);
}

model::Profile profile_of(const std::vector<RankRecord>& records) {
  std::vector<std::string> warnings;
  return assemble_profile(records, {"prog", static_cast<std::int64_t>(records.size()), "", 0, {}}, warnings);
}

TEST(PairWindowTransfers, TheTargetReceivesJustBeforeTheFenceThatEndsTheEpoch) {
  std::vector<RankRecord> records = {halo_step(0, {1}, 800), halo_step(1, {0, 2}, 800), halo_step(2, {1}, 800)};
  const WindowTransfers pairs = pair_window_transfers(records);
  EXPECT_EQ(pairs.paired, 4);
  EXPECT_EQ(pairs.dropped, 0);
  // Rank 1: [fence] [1 ms: put->0, put->2, recv<-0, recv<-2, fence].
  const std::vector<model::CommOp>& comm = records[1].sections[1].comm;
  ASSERT_EQ(comm.size(), 5u);
  EXPECT_EQ(comm[2].kind, model::CommKind::recv);
  EXPECT_EQ(comm[2].peer, 0);
  EXPECT_EQ(comm[3].kind, model::CommKind::recv);
  EXPECT_EQ(comm[3].peer, 2);
  EXPECT_EQ(comm[3].tag, kWindowTag);
  EXPECT_EQ(comm[3].bytes, 800);
  EXPECT_EQ(comm[4].kind, model::CommKind::collective);
  // Its own puts still complete at the fence, ahead of the receives.
  EXPECT_EQ(comm[0].completed_section, 1);
  EXPECT_EQ(comm[0].completed_comm, 2);
  EXPECT_EQ(comm[1].completed_comm, 2);
  // Every message now has its receive: the model pairs them.
  EXPECT_EQ(iterations_misfit(profile_of(records)), std::nullopt);
}

TEST(PairWindowTransfers, WithoutTheReceivesTheProfileDoesNotPair) {
  const std::vector<RankRecord> records = {halo_step(0, {1}, 8), halo_step(1, {0}, 8)};
  EXPECT_NE(iterations_misfit(profile_of(records)), std::nullopt);
}

// The k-th collective of the origin is the k-th of the target: a transfer
// whose epoch ends at the second collective is received before the
// target's second, not its first.
TEST(PairWindowTransfers, TheFenceIsFoundByItsNumberAmongTheCollectives) {
  Timeline origin;
  fence(origin, {});
  const Timeline::CommRef sent = origin.add_comm(put_to(1, 64));
  origin.add_compute(1e-3);
  fence(origin, {sent});
  Timeline target;
  fence(target, {});
  target.add_compute(2e-3);
  fence(target, {});
  std::vector<RankRecord> records = {record_of(0, origin), record_of(1, target)};
  EXPECT_EQ(pair_window_transfers(records).paired, 1);
  const std::vector<model::Section>& sections = records[1].sections;
  ASSERT_EQ(sections.size(), 2u);
  ASSERT_EQ(sections[0].comm.size(), 1u);
  ASSERT_EQ(sections[1].comm.size(), 2u);
  EXPECT_EQ(sections[1].comm[0].kind, model::CommKind::recv);
  EXPECT_EQ(sections[1].comm[1].kind, model::CommKind::collective);
}

// A transfer whose fence is in the next period (the capture ended inside
// its epoch) is left out, and the completions after it follow their
// operations.
TEST(PairWindowTransfers, ATransferNotEndedInThePeriodIsLeftOut) {
  Timeline t;
  fence(t, {});
  t.add_compute(1e-3);
  model::CommOp isend = op(model::CommKind::send, 1, 3, 16);
  isend.nonblocking = true;
  t.add_comm(put_to(1, 64));  // its fence is not in the period
  const Timeline::CommRef sent = t.add_comm(isend);
  t.add_comm(op(model::CommKind::recv, 1, 4, 16));
  t.complete(sent, t.here());
  t.add_compute(1e-3);
  Timeline other;
  fence(other, {});
  other.add_compute(1e-3);
  other.add_comm(op(model::CommKind::recv, 0, 3, 16));
  other.add_comm(op(model::CommKind::send, 0, 4, 16));
  std::vector<RankRecord> records = {record_of(0, t), record_of(1, other)};
  const WindowTransfers pairs = pair_window_transfers(records);
  EXPECT_EQ(pairs.paired, 0);
  EXPECT_EQ(pairs.dropped, 1);
  const std::vector<model::CommOp>& comm = records[0].sections[1].comm;
  ASSERT_EQ(comm.size(), 2u);
  EXPECT_EQ(comm[0].tag, 3);
  EXPECT_EQ(comm[0].completed_section, 1);
  EXPECT_EQ(comm[0].completed_comm, 2);  // after the receive, which moved from 2 to 1
  EXPECT_EQ(comm[1].tag, 4);
  EXPECT_EQ(records[1].sections[1].comm.size(), 2u);  // nothing added to the target
  EXPECT_EQ(iterations_misfit(profile_of(records)), std::nullopt);
}

// A non-blocking collective completed after the target's fence (an
// MPI_Iallreduce posted before the epoch, waited for after the fence) is
// still completed after the fence once the receive is added before it.
TEST(PairWindowTransfers, ANonblockingCollectivesCompletionMovesWithItsPlace) {
  model::CommOp sums;
  sums.kind = model::CommKind::collective;
  sums.collective = model::Collective::allreduce;
  sums.nonblocking = true;
  // Rank 0's fences are its collectives 0 and 2; the allreduce is its 1.
  Timeline origin;
  fence(origin, {});
  origin.add_comm(sums);
  origin.add_compute(1e-3);
  std::vector<Timeline::CommRef> epoch{origin.add_comm(put_to(1, 8))};
  fence(origin, epoch);
  Timeline target;
  fence(target, {});
  const Timeline::CommRef posted = target.add_comm(sums);
  target.add_compute(1e-3);
  fence(target, {});
  target.complete(posted, target.here());  // after the fence: (1, 1)
  std::vector<RankRecord> records = {record_of(0, origin), record_of(1, target)};
  EXPECT_EQ(pair_window_transfers(records).paired, 1);
  // Rank 1: [fence, iallreduce] [1 ms: recv<-0, fence]; the allreduce is
  // completed after the fence, now (1, 2).
  const std::vector<model::Section>& sections = records[1].sections;
  ASSERT_EQ(sections.size(), 2u);
  ASSERT_EQ(sections[1].comm.size(), 2u);
  EXPECT_EQ(sections[1].comm[0].kind, model::CommKind::recv);
  EXPECT_EQ(sections[0].comm[1].completed_section, 1);
  EXPECT_EQ(sections[0].comm[1].completed_comm, 2);
}

// A passive target transfer is completed at its flush, with compute after
// it; the target receives it just before its collective numbered as the
// origin's first after the flush (the barrier after which it reads it).
TEST(PairWindowTransfers, APassiveTargetTransferIsReceivedBeforeTheNextCollective) {
  Timeline origin;
  origin.add_compute(1e-3);
  const Timeline::CommRef put = origin.add_comm(put_to(1, 64));
  origin.complete(put, origin.here());  // the flush
  origin.add_compute(2e-3);
  origin.add_comm(barrier());
  Timeline target;
  target.add_compute(1e-3);
  target.add_comm(barrier());
  std::vector<RankRecord> records = {record_of(0, origin), record_of(1, target)};
  const WindowTransfers pairs = pair_window_transfers(records);
  EXPECT_EQ(pairs.paired, 1);
  EXPECT_EQ(pairs.dropped, 0);
  const std::vector<model::CommOp>& comm = records[1].sections[0].comm;
  ASSERT_EQ(comm.size(), 2u);
  EXPECT_EQ(comm[0].kind, model::CommKind::recv);
  EXPECT_EQ(comm[0].peer, 0);
  EXPECT_EQ(comm[1].kind, model::CommKind::collective);
  EXPECT_EQ(iterations_misfit(profile_of(records)), std::nullopt);
}

// A target whose period has fewer collectives than the origin's (the
// periods do not line up): the transfer is left out rather than received at
// another fence.
TEST(PairWindowTransfers, ATargetWithoutTheFenceGetsNothing) {
  std::vector<RankRecord> records = {halo_step(0, {1}, 8), record_of(1, Timeline{})};
  const WindowTransfers pairs = pair_window_transfers(records);
  EXPECT_EQ(pairs.paired, 0);
  EXPECT_EQ(pairs.dropped, 1);
  EXPECT_EQ(records[0].sections[1].comm.size(), 1u);
}

}  // namespace
}  // namespace mheta::interpose
