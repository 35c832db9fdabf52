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

}  // namespace
}  // namespace mheta::interpose
