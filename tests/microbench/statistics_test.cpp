#include "microbench/statistics.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace mheta::microbench {
namespace {

TEST(Sample, MedianIgnoresAPreemption) {
  Sample s;
  for (int i = 0; i < 20; ++i) s.add(1e-6 * (1 + 0.01 * (i % 5)));
  s.add(5e-3);  // one timing that included a 5 ms preemption
  EXPECT_NEAR(s.median(), 1.02e-6, 1e-12);
  EXPECT_LT(s.ci95(), 0.05e-6);
}

TEST(Sample, IntervalCoversTheTrueMedianAboutNinetyFivePercentOfTheTime) {
  std::mt19937 random(42);
  std::normal_distribution<double> normal(10, 2);
  int covered = 0;
  const int trials = 400;
  for (int t = 0; t < trials; ++t) {
    Sample s;
    for (int i = 0; i < 50; ++i) s.add(normal(random));
    if (std::fabs(s.median() - 10) <= s.ci95()) ++covered;
  }
  EXPECT_GE(covered, trials * 90 / 100);
  EXPECT_LE(covered, trials);
}

TEST(Sample, NoIntervalBeforeThreeValues) {
  Sample s;
  s.add(1);
  s.add(2);
  EXPECT_TRUE(std::isinf(s.ci95()));
  s.add(3);
  EXPECT_TRUE(std::isfinite(s.ci95()));
}

TEST(Sample, MergeKeepsEveryValue) {
  Sample a;
  Sample b;
  for (int i = 0; i < 5; ++i) a.add(i);
  for (int i = 5; i < 10; ++i) b.add(i);
  a.merge(b);
  EXPECT_EQ(a.count(), 10);
  EXPECT_DOUBLE_EQ(a.median(), 4.5);
}

TEST(StudentT, ApproachesTheNormalQuantile) {
  EXPECT_NEAR(student_t95(1), 12.706, 1e-3);
  EXPECT_NEAR(student_t95(10), 2.228, 1e-3);
  EXPECT_NEAR(student_t95(1000), 1.96, 0.01);
  EXPECT_GT(student_t95(5), student_t95(6));
}

}  // namespace
}  // namespace mheta::microbench
