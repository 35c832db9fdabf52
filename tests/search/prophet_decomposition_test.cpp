#include "search/prophet_decomposition.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

namespace mheta::search {
namespace {

TEST(ProphetDecomposition, WithoutFixedCostsSharesAreInverseCostProportional) {
  const std::vector<LinearCost> costs{{0, 1.0}, {0, 2.0}, {0, 4.0}, {0, 0.5}};
  const std::vector<char> all(costs.size(), 1);
  const double n = 1000;
  const std::vector<double> shares = balanced_shares(costs, all, n);
  double inverse_sum = 0;
  for (const LinearCost& c : costs) inverse_sum += 1 / c.y;
  for (std::size_t i = 0; i < costs.size(); ++i) {
    EXPECT_NEAR(shares[i], n * (1 / costs[i].y) / inverse_sum, 1e-9) << "processor " << i;
  }
  const std::vector<std::int64_t> rows = round_partition(shares, costs, 1000);
  EXPECT_EQ(std::accumulate(rows.begin(), rows.end(), std::int64_t{0}), 1000);
  for (std::size_t i = 0; i < costs.size(); ++i) EXPECT_LE(std::abs(static_cast<double>(rows[i]) - shares[i]), 1.0);
}

TEST(ProphetDecomposition, DissertationSten1024) {
  // Table 7.6: N = 1024 rows on 6 SGI + 8 Sparc2 + 5 IPC, per-row costs in
  // the ratio 0.0001 : 0.000319 : 0.0006 (Fig 7.6).
  std::vector<LinearCost> costs;
  for (int i = 0; i < 6; ++i) costs.push_back({0, 0.0001});
  for (int i = 0; i < 8; ++i) costs.push_back({0, 0.000319});
  for (int i = 0; i < 5; ++i) costs.push_back({0, 0.0006});
  const std::vector<char> all(costs.size(), 1);
  const std::vector<double> shares = balanced_shares(costs, all, 1024);
  EXPECT_NEAR(shares[0], 109.6, 0.05);
  EXPECT_NEAR(shares[6], 34.4, 0.05);
  EXPECT_NEAR(shares[14], 18.3, 0.05);
  // The dissertation's 110 / 34 / 18 are the nearest integers...
  EXPECT_EQ(std::llround(shares[0]), 110);
  EXPECT_EQ(std::llround(shares[6]), 34);
  EXPECT_EQ(std::llround(shares[14]), 18);
  // ...and the rows they leave over go to the fastest, one each.
  const std::vector<std::int64_t> rows = round_partition(shares, costs, 1024);
  EXPECT_EQ(std::accumulate(rows.begin(), rows.end(), std::int64_t{0}), 1024);
  const std::int64_t leftover = 1024 - (6 * 110 + 8 * 34 + 5 * 18);
  ASSERT_EQ(leftover, 2);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(rows[static_cast<std::size_t>(i)], i < leftover ? 111 : 110);
  for (int i = 6; i < 14; ++i) EXPECT_EQ(rows[static_cast<std::size_t>(i)], 34);
  for (int i = 14; i < 19; ++i) EXPECT_EQ(rows[static_cast<std::size_t>(i)], 18);
}

TEST(ProphetDecomposition, FixedCostsBalanceTheFinishTime) {
  const std::vector<LinearCost> costs{{0.5, 0.01}, {0.0, 0.02}, {0.2, 0.005}};
  const std::vector<char> all(costs.size(), 1);
  const std::vector<double> shares = balanced_shares(costs, all, 300);
  EXPECT_NEAR(std::accumulate(shares.begin(), shares.end(), 0.0), 300, 1e-9);
  const double finish = costs[0].x + costs[0].y * shares[0];
  for (std::size_t i = 1; i < costs.size(); ++i) EXPECT_NEAR(costs[i].x + costs[i].y * shares[i], finish, 1e-9);
}

TEST(ProphetDecomposition, DropsAProcessorWhoseFixedCostExceedsTheFinishTime) {
  const std::vector<LinearCost> costs{{0, 0.01}, {0, 0.01}, {100.0, 0.01}};
  const std::vector<char> all(costs.size(), 1);
  const std::vector<double> shares = balanced_shares(costs, all, 100);
  EXPECT_EQ(shares[2], 0);
  EXPECT_NEAR(shares[0], 50, 1e-9);
  EXPECT_NEAR(shares[1], 50, 1e-9);
}

TEST(ProphetDecomposition, UnselectedProcessorsGetNothing) {
  const std::vector<LinearCost> costs{{0, 0.01}, {0, 0.01}, {0, 0.01}};
  const std::vector<char> selected{1, 0, 1};
  const std::vector<double> shares = balanced_shares(costs, selected, 101);
  EXPECT_EQ(shares[1], 0);
  const std::vector<std::int64_t> rows = round_partition(shares, costs, 101);
  EXPECT_EQ(rows[1], 0);
  EXPECT_EQ(rows[0] + rows[2], 101);
}

}  // namespace
}  // namespace mheta::search
