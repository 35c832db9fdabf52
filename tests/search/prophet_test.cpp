#include "search/prophet.hpp"

#include <gtest/gtest.h>

#include "search/method.hpp"
#include "tests/search/instances.hpp"

namespace mheta::search {
namespace {

TEST(Prophet, GroupsIdenticalNodesIntoClusters) {
  const Instance i = testing::compute_only({1e-4, 2e-4, 1e-4, 2e-4, 3e-4}, 500, Pattern::neighbour);
  const model::Model m(i.profile, i.cluster);
  const RowBounds b = row_bounds(m, 0);
  const std::vector<LinearCost> costs = linear_costs(m, model::block_distribution(500, 5).rows, b);
  const std::vector<std::vector<int>> clusters = identical_node_clusters(i.cluster, costs, b);
  ASSERT_EQ(clusters.size(), 3u);
  EXPECT_EQ(clusters[0], (std::vector<int>{0, 2}));
  EXPECT_EQ(clusters[1], (std::vector<int>{1, 3}));
  EXPECT_EQ(clusters[2], (std::vector<int>{4}));
}

TEST(Prophet, LinearCostsRecoverComputePerRow) {
  const Instance i = testing::compute_only({1e-4, 3e-4}, 400);
  const model::Model m(i.profile, i.cluster);
  const std::vector<LinearCost> costs = linear_costs(m, std::vector<std::int64_t>{200, 200}, row_bounds(m, 0));
  EXPECT_NEAR(costs[0].y, 1e-4, 1e-9);
  EXPECT_NEAR(costs[1].y, 3e-4, 1e-9);
  EXPECT_GE(costs[0].x, 0);
}

TEST(Prophet, BalancesComputeOnlyRanksLikeEq45) {
  const Instance i = testing::compute_only({1e-4, 2e-4, 4e-4}, 700);
  const model::Model m(i.profile, i.cluster);
  for (const char* method : {"prophet", "prophet-h2"}) {
    const SearchResult r = run_search(m, i.cluster, method, {});
    EXPECT_EQ(r.dist.rows, (std::vector<std::int64_t>{400, 200, 100})) << method;
  }
}

TEST(Prophet, LeavesOutAClusterThatOnlySlowsTheRunDown) {
  // Two fast ranks and two ranks a thousand times slower: any row on them
  // costs more than the whole data on the fast ones.
  const Instance i = testing::compute_only({1e-5, 1e-5, 1e-2, 1e-2}, 200, Pattern::reduction);
  const model::Model m(i.profile, i.cluster);
  for (const char* method : {"prophet", "prophet-h2"}) {
    const SearchResult r = run_search(m, i.cluster, method, {});
    EXPECT_EQ(r.dist.rows[2], 0) << method;
    EXPECT_EQ(r.dist.rows[3], 0) << method;
    EXPECT_EQ(r.dist.rows[0] + r.dist.rows[1], 200) << method;
  }
}

}  // namespace
}  // namespace mheta::search
