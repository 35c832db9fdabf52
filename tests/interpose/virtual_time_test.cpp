#include "interpose/virtual_time.hpp"

#include <gtest/gtest.h>

namespace mheta::interpose {
namespace {

using model::Collective;

// 50 us latency, 100 MB/s: one byte takes 10 ns.
constexpr Link kLink{.latency_s = 50e-6, .bandwidth_Bps = 100e6};

TEST(VirtualTime, ComputeIsCpuTimeTimesTheFactorWithoutDilation) {
  VirtualClock clock;
  EXPECT_DOUBLE_EQ(clock.advance_compute(0.010, 2.0), 0.020);
  EXPECT_DOUBLE_EQ(clock.advance_compute(0.005, 1.5), 0.0075);
  EXPECT_DOUBLE_EQ(clock.now(), 0.0275);
  // A section that used no CPU (or a clock that went backwards) adds nothing.
  EXPECT_DOUBLE_EQ(clock.advance_compute(-1e-9, 3.0), 0.0);
  EXPECT_DOUBLE_EQ(clock.now(), 0.0275);
}

TEST(VirtualTime, IoIsMeasuredTimeWithoutRunQueueWaitsTimesTheFactor) {
  VirtualClock clock;
  // 10 ms in the call, 4 ms of it waiting for a core: 6 ms of disk, times 4.
  EXPECT_DOUBLE_EQ(clock.advance_io(0.010, 0.004, 4.0), 0.024);
  EXPECT_DOUBLE_EQ(clock.now(), 0.024);
  // More queueing than wall time (clock granularity) is no negative I/O.
  EXPECT_DOUBLE_EQ(clock.advance_io(0.001, 0.002, 4.0), 0.0);
}

TEST(VirtualTime, AMessageArrivesAfterLatencyAndItsBytesAtTheBandwidth) {
  // 1000 bytes at 100 MB/s: 10 us; plus 50 us latency.
  EXPECT_DOUBLE_EQ(message_arrival(1.0, kLink, 1000), 1.0 + 50e-6 + 10e-6);
  EXPECT_DOUBLE_EQ(injection_time(kLink, 1000), 10e-6);
  EXPECT_DOUBLE_EQ(message_arrival(2.0, kLink, 0), 2.0 + 50e-6);
}

TEST(VirtualTime, AReceiveCompletesAtTheLaterOfItsClockAndTheArrival) {
  VirtualClock early;
  early.advance(0.5);
  early.wait_until(message_arrival(0.7, kLink, 1000));  // the receiver waits for the message
  EXPECT_DOUBLE_EQ(early.now(), 0.7 + 60e-6);
  VirtualClock late;
  late.advance(0.9);
  late.wait_until(message_arrival(0.7, kLink, 1000));  // the message was already there
  EXPECT_DOUBLE_EQ(late.now(), 0.9);
}

TEST(VirtualTime, CollectiveCostsFollowTheirAlgorithms) {
  const double alpha = 50e-6;
  const double n_beta = 8e3 / 100e6;  // 8 kB
  // 8 ranks: 3 rounds.
  EXPECT_DOUBLE_EQ(collective_cost(Collective::barrier, 8, 0, kLink), 3 * alpha);
  EXPECT_DOUBLE_EQ(collective_cost(Collective::allreduce, 8, 8e3, kLink), 3 * (alpha + n_beta));
  EXPECT_DOUBLE_EQ(collective_cost(Collective::bcast, 8, 8e3, kLink), 3 * (alpha + n_beta));
  EXPECT_DOUBLE_EQ(collective_cost(Collective::allgather, 8, 8e3, kLink), 3 * alpha + 7 * n_beta);
  EXPECT_DOUBLE_EQ(collective_cost(Collective::gather, 8, 8e3, kLink), 3 * alpha + 7 * n_beta);
  EXPECT_DOUBLE_EQ(collective_cost(Collective::alltoall, 8, 8e3, kLink), 7 * (alpha + n_beta));
  // 5 ranks: ceil(log2 5) = 3 rounds; 2 ranks: 1; one rank costs nothing.
  EXPECT_DOUBLE_EQ(collective_cost(Collective::barrier, 5, 0, kLink), 3 * alpha);
  EXPECT_DOUBLE_EQ(collective_cost(Collective::allreduce, 2, 8e3, kLink), alpha + n_beta);
  EXPECT_DOUBLE_EQ(collective_cost(Collective::allreduce, 1, 8e3, kLink), 0.0);
}

TEST(VirtualTime, ACollectiveEndsAfterItsLastEntryPlusItsCost) {
  VirtualClock clock;
  clock.advance(0.100);
  const double latest_entry = 0.250;  // another rank entered later
  clock.wait_until(latest_entry + collective_cost(Collective::barrier, 4, 0, kLink));
  EXPECT_DOUBLE_EQ(clock.now(), 0.250 + 2 * 50e-6);
}

TEST(VirtualTime, TheSlowestLinkHasTheLargestLatencyAndSmallestBandwidth) {
  const Link fast{.latency_s = 1e-6, .bandwidth_Bps = 10e9};
  const Link s = slowest(fast, kLink);
  EXPECT_DOUBLE_EQ(s.latency_s, 50e-6);
  EXPECT_DOUBLE_EQ(s.bandwidth_Bps, 100e6);
}

}  // namespace
}  // namespace mheta::interpose
