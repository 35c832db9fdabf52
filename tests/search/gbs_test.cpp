#include "search/gbs.hpp"

#include <gtest/gtest.h>

#include <numeric>

#include "search/canonical.hpp"
#include "search/method.hpp"
#include "tests/search/instances.hpp"

namespace mheta::search {
namespace {

TEST(Gbs, CommonFinishTimeBalancesComputeOnlyRanks) {
  const Instance i = testing::compute_only({1e-4, 2e-4, 4e-4, 1e-4}, 1000);
  const model::Model m(i.profile, i.cluster);
  const CommonFinish f = common_finish_time(m, row_bounds(m, 0));
  // Speeds 4:2:1:4 of 1000 rows: 363.6, 181.8, 90.9, 363.6.
  const std::vector<double> expected{1000 * 4 / 11.0, 1000 * 2 / 11.0, 1000 * 1 / 11.0, 1000 * 4 / 11.0};
  EXPECT_EQ(std::accumulate(f.rows.begin(), f.rows.end(), std::int64_t{0}), 1000);
  for (std::size_t r = 0; r < expected.size(); ++r) EXPECT_NEAR(static_cast<double>(f.rows[r]), expected[r], 1.0) << r;
  // The finish time is the busy time of those rows, to a row's cost.
  EXPECT_NEAR(f.finish_s, m.rank_busy_seconds(0, 0, f.rows[0]), 1e-4 + 1e-9);
}

TEST(Gbs, CommonFinishTimeKeepsRanksInCoreWhenThatIsFaster) {
  // Equal CPUs; rank 0 holds 10 rows in core, the others 100; one row from
  // disk costs ten times its compute.
  const Instance i = testing::memory_limited({10, 100, 100}, 150);
  const model::Model m(i.profile, i.cluster);
  const CommonFinish f = common_finish_time(m, row_bounds(m, 0));
  EXPECT_LE(f.rows[0], 10);
  EXPECT_EQ(f.rows[0] + f.rows[1] + f.rows[2], 150);
}

TEST(Gbs, NeverWorseThanTheCanonicalDistributions) {
  std::mt19937_64 random(7);
  for (Pattern p : {Pattern::neighbour, Pattern::pipelined, Pattern::reduction}) {
    const Instance i = random_instance(random, 6, 600, p);
    const model::Model m(i.profile, i.cluster);
    const SearchResult found = run_search(m, i.cluster, "gbs", {});
    model::Workspace ws(m);
    for (Canonical c : kCanonicals) {
      const model::GenBlock d = canonical_distribution(m, row_bounds(m, 0), c);
      EXPECT_LE(found.iteration_s, m.iteration_seconds(d.rows, ws) * (1 + 1e-12))
          << pattern_name(p) << " " << canonical_name(c);
    }
    EXPECT_NEAR(found.iteration_s, m.iteration_seconds(found.dist.rows, ws), 1e-12 * found.iteration_s);
    EXPECT_GT(found.evaluations, 0);
  }
}

TEST(Gbs, RespectsMinRows) {
  // Rank 2 is so slow that GBS would rather leave it empty.
  const Instance i = testing::compute_only({1e-4, 1e-4, 1e-1}, 300, Pattern::neighbour);
  const model::Model m(i.profile, i.cluster);
  const SearchResult free = run_search(m, i.cluster, "gbs", {});
  EXPECT_EQ(free.dist.rows[2], 0);
  SearchOptions o;
  o.min_rows = 5;
  const SearchResult bounded = run_search(m, i.cluster, "gbs", o);
  for (std::int64_t r : bounded.dist.rows) EXPECT_GE(r, 5);
  EXPECT_EQ(bounded.dist.total_rows(), 300);
}

}  // namespace
}  // namespace mheta::search
