#include "interpose/period_detector.hpp"

#include <gtest/gtest.h>

namespace mheta::interpose {
namespace {

TEST(PeriodDetector, FindsThePeriodAfterThreeRepetitions) {
  PeriodDetector d;
  const std::uint64_t setup[] = {100, 101, 102};
  for (auto s : setup) d.observe(s, false);
  const std::uint64_t iteration[] = {1, 2, 2, 3, 4};  // 4 is a collective
  for (int rep = 0; rep < 2; ++rep) {
    for (auto s : iteration) d.observe(s, s == 4);
  }
  EXPECT_EQ(d.period(), 0);  // two repetitions are not enough
  for (auto s : iteration) d.observe(s, s == 4);
  EXPECT_EQ(d.period(), 5);
  EXPECT_EQ(d.collectives_in_period(5), 1);
}

TEST(PeriodDetector, PrefersTheSmallestPeriod) {
  PeriodDetector d;
  for (int i = 0; i < 12; ++i) d.observe(i % 2, true);
  EXPECT_EQ(d.period(), 2);
  EXPECT_EQ(d.collectives_in_period(2), 2);
}

TEST(PeriodDetector, ABrokenPatternIsNoPeriod) {
  PeriodDetector d;
  for (int i = 0; i < 40; ++i) d.observe(static_cast<std::uint64_t>(i * i), false);
  EXPECT_EQ(d.period(), 0);
}

// Signatures 10 + kind: a setup call of kind 1 that fits the pattern ahead
// of the loop, then iterations of kinds 2, 1, 1 (like nas_style_cg: an
// allgather and two allreduces): kind 2 ends each iteration, once a period,
// and every iteration so far is seen, the setup call not.
TEST(PeriodDetector, CountsTheIterationsSeenBeforeDetection) {
  for (int iterations = 3; iterations <= 40; iterations += 37) {
    PeriodDetector d;
    d.observe(11, true, 1);
    const int iteration[] = {2, 1, 1};
    for (int it = 0; it < iterations; ++it) {
      for (int kind : iteration) d.observe(static_cast<std::uint64_t>(10 + kind), kind == 1, kind);
    }
    ASSERT_EQ(d.period(), 3);
    const PeriodDetector::Boundary b = d.boundary(3);
    EXPECT_EQ(b.kind, 2);
    EXPECT_EQ(b.per_period, 1);
    EXPECT_EQ(b.seen, iterations) << iterations << " iterations";
  }
}

// No kind appears once a period: every other call of the least frequent one
// ends an iteration; calls before the pattern are not seen.
TEST(PeriodDetector, ABoundaryKindTwiceAPeriod) {
  PeriodDetector d;
  for (int i = 0; i < 5; ++i) d.observe(static_cast<std::uint64_t>(100 + i), false, 7);  // setup, kind 7
  const int iteration[] = {7, 7, 8, 8, 8};
  for (int it = 0; it < 4; ++it) {
    for (int kind : iteration) d.observe(static_cast<std::uint64_t>(kind), false, kind);
  }
  d.observe(7, false, 7);  // the next iteration has begun
  ASSERT_EQ(d.period(), 5);
  const PeriodDetector::Boundary b = d.boundary(5);
  EXPECT_EQ(b.kind, 7);
  EXPECT_EQ(b.per_period, 2);
  EXPECT_EQ(b.seen, 4 * 2 + 1);
}

}  // namespace
}  // namespace mheta::interpose
