#include "microbench/least_squares.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "microbench/linear_cost.hpp"

namespace mheta::microbench {
namespace {

TEST(WeightedLeastSquares, RecoversALatencyAndPerByteCostWithinTheirIntervals) {
  // alpha = 2 us, beta = 1 ns/B, 1% noise, sizes 8 B .. 1 MiB.
  std::mt19937 random(7);
  std::normal_distribution<double> noise(0, 0.01);
  const int n = 12;
  Eigen::MatrixXd x(n, 2);
  Eigen::VectorXd y(n);
  Eigen::VectorXd sigma(n);
  for (int i = 0; i < n; ++i) {
    const double bytes = std::pow(4.0, i) * 8;
    const double t = 2e-6 + 1e-9 * bytes;
    x(i, 0) = 1;
    x(i, 1) = bytes;
    y(i) = t * (1 + noise(random));
    sigma(i) = 0.01 * t;
  }
  const LinearFit fit = weighted_least_squares(x, y, sigma);
  EXPECT_NEAR(fit.coefficients(0), 2e-6, fit.ci95(0));
  EXPECT_NEAR(fit.coefficients(1), 1e-9, fit.ci95(1));
  EXPECT_LT(fit.ci95(0), 0.05 * 2e-6);
  EXPECT_LT(fit.ci95(1), 0.05 * 1e-9);
}

TEST(WeightedLeastSquares, ExactDataGivesExactCoefficients) {
  Eigen::MatrixXd x(4, 3);
  Eigen::VectorXd y(4);
  for (int i = 0; i < 4; ++i) {
    const double p = i + 2;
    x.row(i) << 1, std::log2(p), p;
    y(i) = 3 + 2 * std::log2(p) + 0.5 * p;
  }
  const LinearFit fit = weighted_least_squares(x, y, Eigen::VectorXd::Constant(4, 0.1));
  EXPECT_NEAR(fit.coefficients(0), 3, 1e-9);
  EXPECT_NEAR(fit.coefficients(1), 2, 1e-9);
  EXPECT_NEAR(fit.coefficients(2), 0.5, 1e-9);
}

TEST(WeightedLeastSquares, ARankDeficientDesignStillFitsTheData) {
  // Two identical columns: the split between them is arbitrary, their sum is not.
  Eigen::MatrixXd x(3, 2);
  x << 1, 1, 1, 1, 1, 1;
  const Eigen::VectorXd y = Eigen::VectorXd::Constant(3, 4);
  const LinearFit fit = weighted_least_squares(x, y, Eigen::VectorXd::Constant(3, 1));
  EXPECT_NEAR(fit.coefficients.sum(), 4, 1e-9);
  EXPECT_TRUE(std::isfinite(fit.ci95(0)));
}

TEST(LinearCost, FitsTheMediansOfASizeSweep) {
  const std::vector<std::int64_t> sizes = {4096, 65536, 1 << 20};
  std::vector<Sample> samples(sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    for (int k = 0; k < 9; ++k) samples[i].add(1e-4 + 2e-9 * static_cast<double>(sizes[i]) * (1 + 0.001 * (k - 4)));
  }
  const LinearCost cost = fit_linear_cost(sizes, samples);
  EXPECT_NEAR(cost.overhead_s, 1e-4, 1e-6);
  EXPECT_NEAR(cost.s_per_byte, 2e-9, 2e-11);
  EXPECT_TRUE(cost.precise_enough(sizes, 0.05));
  EXPECT_FALSE(cost.precise_enough(sizes, 1e-9));
}

TEST(LinearCost, ANegativeInterceptIsReportedAsZero) {
  const std::vector<std::int64_t> sizes = {1000, 2000, 3000};
  std::vector<Sample> samples(sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    for (int k = 0; k < 3; ++k) samples[i].add(-1e-6 + 1e-9 * static_cast<double>(sizes[i]));
  }
  const LinearCost cost = fit_linear_cost(sizes, samples);
  EXPECT_EQ(cost.overhead_s, 0);
  EXPECT_NEAR(cost.s_per_byte, 1e-9, 1e-12);
}

}  // namespace
}  // namespace mheta::microbench
