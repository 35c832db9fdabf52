#include "search/row_bounds.hpp"

#include <gtest/gtest.h>

#include <numeric>

#include "search/search_error.hpp"
#include "tests/search/instances.hpp"

namespace mheta::search {
namespace {

std::int64_t sum(const std::vector<std::int64_t>& v) { return std::accumulate(v.begin(), v.end(), std::int64_t{0}); }

TEST(RowBounds, MinRowsBeyondAnEqualShareIsARequestError) {
  const Instance i = testing::compute_only({1e-4, 1e-4, 1e-4}, 100);
  const model::Model m(i.profile, i.cluster);
  EXPECT_NO_THROW(row_bounds(m, 33));
  try {
    row_bounds(m, 34);
    FAIL() << "34 rows on each of 3 ranks exceed 100 rows";
  } catch (const SearchError& e) {
    EXPECT_EQ(e.cause(), SearchError::Cause::request);
    EXPECT_NE(std::string(e.what()).find("--min-rows 34"), std::string::npos) << e.what();
  }
}

TEST(RowBounds, NoRankWithMemoryForARowIsAnInputsError) {
  Instance i = testing::compute_only({1e-4, 1e-4}, 100);
  for (model::Node& n : i.cluster.nodes) n.memory_bytes = 100;  // rows are 1 KiB
  const model::Model m(i.profile, i.cluster);
  try {
    row_bounds(m, 0);
    FAIL() << "no node holds a row";
  } catch (const SearchError& e) {
    EXPECT_EQ(e.cause(), SearchError::Cause::inputs);
    EXPECT_NE(std::string(e.what()).find("memory_bytes"), std::string::npos) << e.what();
  }
}

TEST(RowBounds, RanksWithoutMemoryForARowMayOwnNothing) {
  Instance i = testing::compute_only({1e-4, 1e-4, 1e-4}, 100);
  i.cluster.nodes[1].memory_bytes = 100;
  const model::Model m(i.profile, i.cluster);
  const RowBounds b = row_bounds(m, 0);
  EXPECT_EQ(b.hi[1], 0);
  EXPECT_EQ(b.hi[0], 100);
  EXPECT_THROW(row_bounds(m, 1), SearchError);
}

TEST(RowBounds, FitToBoundsKeepsTheSumAndTheLimits) {
  RowBounds b{{5, 5, 0, 5}, {100, 100, 0, 100}, 100};
  std::vector<std::int64_t> rows{0, 90, 7, 90};
  fit_to_bounds(rows, b);
  EXPECT_EQ(sum(rows), 100);
  EXPECT_TRUE(b.contains(rows));
  rows = {0, 0, 0, 0};
  fit_to_bounds(rows, b);
  EXPECT_TRUE(b.contains(rows));
}

TEST(RowBounds, RoundSharesIsExactAndWithinOneRow) {
  RowBounds b{{0, 0, 0}, {1000, 1000, 1000}, 1000};
  const std::vector<double> shares{1.0, 1.0, 1.0};
  const std::vector<std::int64_t> rows = round_shares(shares, b);
  EXPECT_EQ(sum(rows), 1000);
  for (std::int64_t r : rows) EXPECT_NEAR(static_cast<double>(r), 1000.0 / 3, 1.0);
}

}  // namespace
}  // namespace mheta::search
