#include "search/canonical.hpp"

#include <gtest/gtest.h>

#include <numeric>

#include "search/search_error.hpp"
#include "tests/search/instances.hpp"

namespace mheta::search {
namespace {

std::int64_t sum(const std::vector<std::int64_t>& v) { return std::accumulate(v.begin(), v.end(), std::int64_t{0}); }

TEST(Canonical, BlkIsEqualBlocks) {
  const Instance i = testing::compute_only({1e-4, 2e-4, 4e-4}, 100);
  const model::Model m(i.profile, i.cluster);
  const RowBounds b = row_bounds(m, 0);
  EXPECT_EQ(canonical_distribution(m, b, Canonical::blk), model::block_distribution(100, 3));
}

TEST(Canonical, BalIsProportionalToComputeSpeed) {
  const Instance i = testing::compute_only({1e-4, 2e-4, 4e-4}, 700);
  const model::Model m(i.profile, i.cluster);
  const model::GenBlock bal = canonical_distribution(m, row_bounds(m, 0), Canonical::bal);
  EXPECT_EQ(bal.rows, (std::vector<std::int64_t>{400, 200, 100}));
}

TEST(Canonical, BalBalancesWorkWhenRowsWeighDifferently) {
  // Rows 0-49 weigh 3, rows 50-99 weigh 1 (200 units); equal CPUs.
  Instance i = testing::compute_only({1e-4, 1e-4}, 100);
  i.profile.row_weights.assign(100, 1.0);
  for (int r = 0; r < 50; ++r) i.profile.row_weights[static_cast<std::size_t>(r)] = 3.0;
  // Instrumented under Blk, rank 0 computed its 150 units in three times
  // rank 1's time for 50: the same speed per unit.
  i.profile.ranks[0].sections[0].stages[0].compute_s *= 3;
  const model::Model m(i.profile, i.cluster);
  const model::GenBlock bal = canonical_distribution(m, row_bounds(m, 0), Canonical::bal);
  // 100 units each: rank 0 takes 33 heavy rows (99) or 34 (102); rank 1 the rest.
  EXPECT_NEAR(static_cast<double>(bal.rows[0]), 100.0 / 3, 1.0);
  EXPECT_EQ(bal.total_rows(), 100);
}

TEST(Canonical, InCoreKeepsEveryRankInCoreWhenMemoryAllows) {
  // Room for 60, 20 and 20 rows; 80 rows to place.
  const Instance i = testing::memory_limited({60, 20, 20}, 80);
  const model::Model m(i.profile, i.cluster);
  const RowBounds b = row_bounds(m, 0);
  const model::GenBlock ic = canonical_distribution(m, b, Canonical::in_core);
  EXPECT_EQ(sum(ic.rows), 80);
  for (int r = 0; r < 3; ++r) EXPECT_LE(ic.rows[static_cast<std::size_t>(r)], m.max_in_core_rows(r)) << r;
  // In proportion to what each holds.
  EXPECT_EQ(ic.rows, (std::vector<std::int64_t>{48, 16, 16}));
  // Equal CPUs: I-C/Bal balances as far as the caps allow.
  const model::GenBlock icbal = canonical_distribution(m, b, Canonical::in_core_balanced);
  EXPECT_EQ(icbal.rows, (std::vector<std::int64_t>{40, 20, 20}));
}

TEST(Canonical, WhenMemoryCannotHoldEverythingOneRankTakesTheRest) {
  const Instance i = testing::memory_limited({30, 20, 20}, 100);
  const model::Model m(i.profile, i.cluster);
  const RowBounds b = row_bounds(m, 0);
  for (Canonical c : {Canonical::in_core, Canonical::in_core_balanced}) {
    const model::GenBlock d = canonical_distribution(m, b, c);
    EXPECT_EQ(sum(d.rows), 100) << canonical_name(c);
    int out_of_core = 0;
    for (int r = 0; r < 3; ++r) out_of_core += d.rows[static_cast<std::size_t>(r)] > m.max_in_core_rows(r);
    EXPECT_EQ(out_of_core, 1) << canonical_name(c);
  }
}

TEST(Canonical, NamesRoundTripInAnyCase) {
  for (Canonical c : kCanonicals) EXPECT_EQ(canonical_from_name(canonical_name(c)), c);
  EXPECT_EQ(canonical_from_name("i-c/bal"), Canonical::in_core_balanced);
  EXPECT_THROW(canonical_from_name("cyclic"), SearchError);
}

TEST(Canonical, SpectrumWalksBlkInCoreBalAndBack) {
  const Instance base = testing::memory_limited({60, 20, 20}, 80);
  Instance i = base;
  i.profile.ranks[0].sections[0].stages[0].compute_s /= 8;  // rank 0 8x as fast: Bal overflows its memory
  const model::Model m(i.profile, i.cluster);
  const RowBounds b = row_bounds(m, 0);
  const int steps = 4;
  const std::vector<NamedDistribution> points = spectrum(m, b, steps);
  ASSERT_GE(points.size(), 5u);
  EXPECT_LE(points.size(), static_cast<std::size_t>(4 * steps + 1));
  EXPECT_EQ(points.front().name, "Blk");
  EXPECT_EQ(points.front().dist, canonical_distribution(m, b, Canonical::blk));
  EXPECT_EQ(points.back().dist, canonical_distribution(m, b, Canonical::blk));
  bool saw_ic = false;
  bool saw_bal = false;
  for (std::size_t k = 0; k < points.size(); ++k) {
    EXPECT_EQ(sum(points[k].dist.rows), 80) << points[k].name;
    if (k > 0) {
      EXPECT_NE(points[k].dist, points[k - 1].dist) << points[k].name;
    }
    saw_ic = saw_ic || points[k].name == "I-C";
    saw_bal = saw_bal || points[k].name == "Bal";
  }
  EXPECT_TRUE(saw_ic);
  EXPECT_TRUE(saw_bal);
}

TEST(Canonical, SpectrumLeavesOutRepeatsWhenCpusAreEqualAndMemoryPlentiful) {
  const Instance i = testing::compute_only({1e-4, 1e-4, 1e-4, 1e-4}, 400);
  const model::Model m(i.profile, i.cluster);
  const std::vector<NamedDistribution> points = spectrum(m, row_bounds(m, 0), 4);
  // Equal CPUs and memory: every canonical distribution is Blk.
  for (const NamedDistribution& p : points) EXPECT_EQ(sum(p.dist.rows), 400);
  EXPECT_EQ(points.size(), 1u);
}

}  // namespace
}  // namespace mheta::search
