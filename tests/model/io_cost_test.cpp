// Eq 1 and Eq 2 of the MHETA paper, each checked against the equation
// written out by hand.
#include "model/io_cost.hpp"

#include <gtest/gtest.h>

namespace mheta::model {
namespace {

constexpr double kOr = 0.010;   // O_r
constexpr double kOw = 0.020;   // O_w
constexpr double kOa = 0.002;   // O_A
constexpr double kR = 1e-5;     // r(m), s/byte
constexpr double kW = 2e-5;     // w(m), s/byte

TEST(Eq1, ReadWriteSweepIsNLTimesOverheadsPlusLatencies) {
  const Sweep sweep{1000, 250, 4};  // M_beta = 4 * M_i
  const double t_r = kR * 250;      // T_r = r * M_i
  const double t_w = kW * 250;
  const double eq1 = 4 * (kOr + t_r + kOw + t_w);
  EXPECT_DOUBLE_EQ(synchronous_read_seconds(sweep, kOr, kR) + write_seconds(sweep, kOw, kW), eq1);
}

TEST(Eq1, ReadOnlyVariableHasNoWriteTerms) {
  const Sweep sweep{1000, 250, 4};
  EXPECT_DOUBLE_EQ(synchronous_read_seconds(sweep, kOr, kR), 4 * (kOr + kR * 250));
}

TEST(Eq1, PartialLastIclaIsChargedForItsRealSize) {
  const Sweep sweep{900, 250, 4};  // chunks of 250, 250, 250, 150
  EXPECT_EQ(sweep.last_chunk_bytes(), 150);
  EXPECT_DOUBLE_EQ(synchronous_read_seconds(sweep, kOr, kR), 4 * kOr + kR * (3 * 250 + 150));
}

TEST(Eq1, InCoreSweepCostsNothing) {
  EXPECT_EQ(synchronous_read_seconds(Sweep{1000, 1000, 0}, kOr, kR), 0.0);
  EXPECT_EQ(write_seconds(Sweep{1000, 1000, 0}, kOw, kW), 0.0);
}

TEST(Eq2, PrefetchFullyHiddenWhenOverlapExceedsReadLatency) {
  const Sweep sweep{1000, 250, 4};
  const double t_r = kR * 250;        // 2.5 ms
  const double overlap = 2e-5;        // T_A = 5 ms per ICLA >= T_r, so T_s = 0
  const double eq2 = 4 * (kOr + kOa) + t_r + 3 * 0.0;
  EXPECT_DOUBLE_EQ(prefetch_read_seconds(sweep, kOr, kOa, kR, overlap), eq2);
}

TEST(Eq2, PrefetchPartlyHiddenChargesTheStallOfEveryLaterIcla) {
  const Sweep sweep{1000, 250, 4};
  const double t_r = kR * 250;   // 2.5 ms
  const double t_a = 0.4e-5 * 250;  // 1 ms of compute per ICLA
  const double t_s = t_r - t_a;     // 1.5 ms stall
  const double eq2 = 4 * (kOr + kOa) + t_r + 3 * t_s;
  EXPECT_NEAR(prefetch_read_seconds(sweep, kOr, kOa, kR, 0.4e-5), eq2, 1e-15);
}

TEST(Eq2, ReducesToEq1WithoutOverlapOrAsyncOverhead) {
  const Sweep sweep{1000, 250, 4};
  EXPECT_NEAR(prefetch_read_seconds(sweep, kOr, 0, kR, 0), synchronous_read_seconds(sweep, kOr, kR), 1e-15);
}

TEST(Eq2, PartialLastIclaStallsBehindTheLastFullOne) {
  const Sweep sweep{900, 250, 4};
  const double t_a = 0.4e-5 * 250;
  const double expected = 4 * (kOr + kOa) + kR * 250 + 2 * (kR * 250 - t_a) + std::max(0.0, kR * 150 - t_a);
  EXPECT_NEAR(prefetch_read_seconds(sweep, kOr, kOa, kR, 0.4e-5), expected, 1e-15);
}

TEST(Eq2, SingleIclaPaysTheWholeRead) {
  const Sweep sweep{200, 250, 1};
  EXPECT_DOUBLE_EQ(prefetch_read_seconds(sweep, kOr, kOa, kR, 1.0), kOr + kOa + kR * 200);
}

TEST(Calibration, PerByteLatencyIsWhatTheMeasuredTimeLeavesAfterTheOverheads) {
  // 4 requests of 250 bytes in 4·O_r + 1000·r seconds: r comes back.
  const IoCalibration c = calibrate_io(4, 1000, 4 * kOr + kR * 1000, {kOr, 9e-9});
  EXPECT_DOUBLE_EQ(c.overhead_s, kOr);
  EXPECT_NEAR(c.s_per_byte, kR, 1e-20);
}

TEST(Calibration, RequestsCheaperThanTheClusterOverheadKeepTheirMeasuredTime) {
  // 4 requests measured at 0.2 ms in all against O_r = 1 ms each: the
  // overhead becomes 0.05 ms a request and nothing is left per byte.
  const IoCalibration c = calibrate_io(4, 1000, 0.2e-3, {kOr, 9e-9});
  EXPECT_DOUBLE_EQ(c.overhead_s, 0.05e-3);
  EXPECT_EQ(c.s_per_byte, 0.0);
  const Sweep sweep{1000, 250, 4};
  EXPECT_NEAR(synchronous_read_seconds(sweep, c.overhead_s, c.s_per_byte), 0.2e-3, 1e-18);
}

TEST(Calibration, NothingMeasuredKeepsTheClusterFigures) {
  const IoCalibration c = calibrate_io(0, 0, 0, {kOr, 9e-9}, {1e-5, 1e-10});
  EXPECT_DOUBLE_EQ(c.overhead_s, kOr);
  EXPECT_DOUBLE_EQ(c.s_per_byte, 9e-9);
}

// A disk request's overhead for the two-regime checks: 1 ms.
constexpr double kDiskOverhead = 1e-3;

TEST(Calibration, RequestsTheDiskCannotServeThatFastTakeThePageCachesOverhead) {
  // 4 requests of 250 000 bytes (1 MB) measured at 2.2 ms. The disk (O_r =
  // 1 ms, r = 4 ns/B) would take 4 ms + 4 ms = 8 ms: ln(8/2.2) = 1.29 away.
  // The page cache (O = 50 us, 2 ns/B) 0.2 ms + 2 ms = 2.2 ms: exact. So
  // O = 50 us, and r = (2.2 ms - 4 · 50 us) / 1 MB = 2 ns/B; half the ICLAs
  // then cost 2 · 50 us + 2 ms, where the disk's O would give 2 ms + 2 ms.
  const RequestCost disk{kDiskOverhead, 4e-9};
  const RequestCost cache{50e-6, 2e-9};
  const IoCalibration c = calibrate_io(4, 1'000'000, 2.2e-3, disk, cache);
  EXPECT_DOUBLE_EQ(c.overhead_s, 50e-6);
  EXPECT_NEAR(c.s_per_byte, 2e-9, 1e-21);
  const Sweep halved{1'000'000, 500'000, 2};
  EXPECT_NEAR(synchronous_read_seconds(halved, c.overhead_s, c.s_per_byte), 2.1e-3, 1e-15);
}

TEST(Calibration, RequestsAsSlowAsTheDiskKeepItsOverhead) {
  // The same requests measured at 7.5 ms: ln(8/7.5) = 0.065 from the disk,
  // ln(7.5/2.2) = 1.23 from the cache. O = O_r, r = (7.5 - 4) ms / 1 MB.
  const IoCalibration c = calibrate_io(4, 1'000'000, 7.5e-3, {kDiskOverhead, 4e-9}, {50e-6, 2e-9});
  EXPECT_DOUBLE_EQ(c.overhead_s, kDiskOverhead);
  EXPECT_NEAR(c.s_per_byte, 3.5e-9, 1e-21);
}

TEST(Calibration, AClusterWithoutThePageCachesFiguresKeepsTheDisks) {
  // Measured at 2.2 ms, as in the cache case, but the cluster file predates
  // the page cache's figures: O_r = 1 ms and r = (2.2 - 4·1 ms) < 0, so the
  // measured time is spread over the requests (0.55 ms each), as before.
  const IoCalibration c = calibrate_io(4, 1'000'000, 2.2e-3, {kDiskOverhead, 4e-9});
  EXPECT_DOUBLE_EQ(c.overhead_s, 0.55e-3);
  EXPECT_EQ(c.s_per_byte, 0.0);
}

}  // namespace
}  // namespace mheta::model
