#include "interpose/undisturbed_compute.hpp"

#include <gtest/gtest.h>

namespace mheta::interpose {
namespace {

constexpr double kUs = 1e-6;

TEST(UndisturbedCompute, UndisturbedSectionsAreChargedAsMeasured) {
  UndisturbedCompute c;
  const auto s = UndisturbedCompute::section(0, 1, 2);
  EXPECT_DOUBLE_EQ(c.charge(s, 20 * kUs, 0), 20 * kUs);
  EXPECT_DOUBLE_EQ(c.charge(s, 900 * kUs, 0), 900 * kUs);
  EXPECT_DOUBLE_EQ(c.charge(s, 21 * kUs, -1), 21 * kUs);  // unknown: as undisturbed
}

TEST(UndisturbedCompute, APreemptedSectionIsChargedTheMedianOfItsUndisturbedRuns) {
  UndisturbedCompute c;
  const auto s = UndisturbedCompute::section(0, 1, 2);
  for (double us : {20.0, 22.0, 19.0}) c.charge(s, us * kUs, 0);
  // 60 us measured, 1 preemption: the median of 19, 20, 22.
  EXPECT_DOUBLE_EQ(c.charge(s, 60 * kUs, 1), 20 * kUs);
  // Not counted among the undisturbed runs: the median is still 20.
  EXPECT_DOUBLE_EQ(c.charge(s, 70 * kUs, 2), 20 * kUs);
}

TEST(UndisturbedCompute, TooFewUndisturbedRunsKeepTheMeasuredTime) {
  UndisturbedCompute c;
  const auto s = UndisturbedCompute::section(0, 3, 4);
  c.charge(s, 20 * kUs, 0);
  c.charge(s, 20 * kUs, 0);
  EXPECT_DOUBLE_EQ(c.charge(s, 60 * kUs, 1), 60 * kUs);
  c.charge(s, 20 * kUs, 0);
  EXPECT_DOUBLE_EQ(c.charge(s, 60 * kUs, 1), 20 * kUs);
}

TEST(UndisturbedCompute, SectionsBetweenOtherFunctionsAreApart) {
  UndisturbedCompute c;
  for (int i = 0; i < 5; ++i) c.charge(UndisturbedCompute::section(0, 1, 2), 20 * kUs, 0);
  EXPECT_NE(UndisturbedCompute::section(0, 1, 2), UndisturbedCompute::section(0, 2, 1));
  EXPECT_NE(UndisturbedCompute::section(0, 1, 2), UndisturbedCompute::section(3, 1, 2));
  EXPECT_DOUBLE_EQ(c.charge(UndisturbedCompute::section(0, 2, 1), 60 * kUs, 1), 60 * kUs);
}

TEST(UndisturbedCompute, MoreThanRefillsCanCostIsWorkAndKept) {
  UndisturbedCompute c;
  const auto s = UndisturbedCompute::section(0, 5, 6);
  for (int i = 0; i < 5; ++i) c.charge(s, 100 * kUs, 0);
  const double most = UndisturbedCompute::kMostRefill;
  EXPECT_DOUBLE_EQ(c.charge(s, 100 * kUs + 0.9 * most, 1), 100 * kUs);
  EXPECT_DOUBLE_EQ(c.charge(s, 100 * kUs + 1.5 * most, 1), 100 * kUs + 1.5 * most);
  // However often it was preempted: a long section that grew is work.
  EXPECT_DOUBLE_EQ(c.charge(s, 100 * kUs + 1.5 * most, 40), 100 * kUs + 1.5 * most);
  // Shorter than the median: nothing to take away.
  EXPECT_DOUBLE_EQ(c.charge(s, 80 * kUs, 1), 80 * kUs);
}

TEST(UndisturbedCompute, TheMedianFollowsTheLastUndisturbedRuns) {
  UndisturbedCompute c;
  const auto s = UndisturbedCompute::section(0, 7, 8);
  for (std::size_t i = 0; i < UndisturbedCompute::kKept; ++i) c.charge(s, 10 * kUs, 0);
  // The work grows: after kKept runs of 50 us, none of 10 us is left.
  for (std::size_t i = 0; i < UndisturbedCompute::kKept; ++i) c.charge(s, 50 * kUs, 0);
  EXPECT_DOUBLE_EQ(c.charge(s, 90 * kUs, 1), 50 * kUs);
}

}  // namespace
}  // namespace mheta::interpose
