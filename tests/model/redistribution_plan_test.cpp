#include "model/redistribution_plan.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace mheta::model {
namespace {

bool operator==(const RowTransfer& a, const RowTransfer& b) {
  return a.from == b.from && a.to == b.to && a.first_row == b.first_row && a.rows == b.rows;
}

TEST(RedistributionPlan, SameDistributionMovesNothing) {
  EXPECT_TRUE(plan_transfers(GenBlock{{3, 4, 5}}, GenBlock{{3, 4, 5}}).empty());
}

TEST(RedistributionPlan, ShiftingOneBoundaryMovesTheRowsBetween) {
  // Rows 0-9 | 10-19 becomes 0-13 | 14-19: rows 10-13 go from rank 1 to rank 0.
  const auto t = plan_transfers(GenBlock{{10, 10}}, GenBlock{{14, 6}});
  ASSERT_EQ(t.size(), 1u);
  EXPECT_TRUE(t[0] == (RowTransfer{1, 0, 10, 4}));
}

TEST(RedistributionPlan, EmptyingARankSendsAllItsRowsToBothSides) {
  // 0-3 | 4-7 | 8-11  ->  0-5 | - | 6-11
  const auto t = plan_transfers(GenBlock{{4, 4, 4}}, GenBlock{{6, 0, 6}});
  ASSERT_EQ(t.size(), 2u);
  EXPECT_TRUE(t[0] == (RowTransfer{1, 0, 4, 2}));
  EXPECT_TRUE(t[1] == (RowTransfer{1, 2, 6, 2}));
}

TEST(RedistributionPlan, EveryMovedRowChangesOwnerAndEveryOtherRowStays) {
  const GenBlock from{{7, 0, 13, 5, 9}};
  const GenBlock to{{2, 11, 0, 16, 5}};
  const auto transfers = plan_transfers(from, to);
  auto owner = [](const GenBlock& d, std::int64_t row) {
    int r = 0;
    for (std::int64_t end = d.rows[0]; end <= row; end += d.rows[static_cast<std::size_t>(++r)]) {
    }
    return r;
  };
  std::int64_t moved = 0;
  for (const RowTransfer& t : transfers) {
    for (std::int64_t row = t.first_row; row < t.first_row + t.rows; ++row) {
      EXPECT_EQ(owner(from, row), t.from);
      EXPECT_EQ(owner(to, row), t.to);
    }
    moved += t.rows;
  }
  std::int64_t changed = 0;
  for (std::int64_t row = 0; row < 34; ++row) changed += owner(from, row) != owner(to, row);
  EXPECT_EQ(moved, changed);
}

TEST(RedistributionPlan, DistributionsOfDifferentShapesAreRefused) {
  EXPECT_THROW(plan_transfers(GenBlock{{1, 2}}, GenBlock{{3}}), std::invalid_argument);
  EXPECT_THROW(plan_transfers(GenBlock{{1, 2}}, GenBlock{{1, 3}}), std::invalid_argument);
}

}  // namespace
}  // namespace mheta::model
