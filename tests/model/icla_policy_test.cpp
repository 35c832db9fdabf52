#include "model/icla_policy.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mheta::model {
namespace {

std::vector<IclaPlan> plan(std::uint64_t budget, std::vector<VariableDemand> demands, IclaOptions options = {}) {
  std::vector<IclaPlan> plans(demands.size());
  plan_iclas(budget, demands, options, plans);
  return plans;
}

TEST(IclaPolicy, EverythingInCoreWhenAllVariablesFitTogether) {
  const auto plans = plan(200'000, {{100, 1000}, {100, 1000}});
  for (const IclaPlan& p : plans) {
    EXPECT_TRUE(p.in_core);
    EXPECT_EQ(p.icla_rows, 100);
    EXPECT_EQ(p.chunks, 0);
  }
}

TEST(IclaPolicy, OneByteTooManyPutsEveryVariableOutOfCore) {
  // 2 x 100 rows x 1000 bytes = 200'000 > 199'999.
  const auto plans = plan(199'999, {{100, 1000}, {100, 1000}});
  for (const IclaPlan& p : plans) {
    EXPECT_FALSE(p.in_core);
    EXPECT_EQ(p.icla_rows, 99);  // floor(199'999 / 2000)
    EXPECT_EQ(p.chunks, 2);      // ceil(100 / 99)
  }
}

TEST(IclaPolicy, VariablesShareTheBudgetByBytesPerRow) {
  const auto plans = plan(30'000, {{100, 1000}, {100, 2000}});
  EXPECT_EQ(plans[0].icla_rows, 10);  // 30'000 / (1000 + 2000)
  EXPECT_EQ(plans[1].icla_rows, 10);
  EXPECT_EQ(plans[0].chunks, 10);
}

TEST(IclaPolicy, DoubleBufferingHalvesTheIcla) {
  const auto plans = plan(30'000, {{100, 1000}, {100, 2000}}, IclaOptions{false, 2});
  EXPECT_EQ(plans[0].icla_rows, 5);
  EXPECT_EQ(plans[0].chunks, 20);
}

TEST(IclaPolicy, ForcedOutOfCoreReadsEvenWhatFits) {
  const auto plans = plan(1'000'000, {{100, 1000}}, IclaOptions{true, 1});
  EXPECT_FALSE(plans[0].in_core);
  EXPECT_EQ(plans[0].icla_rows, 100);
  EXPECT_EQ(plans[0].chunks, 1);
}

TEST(IclaPolicy, AtLeastOneRowPerIclaEvenWithATinyBudget) {
  const auto plans = plan(10, {{7, 1000}});
  EXPECT_EQ(plans[0].icla_rows, 1);
  EXPECT_EQ(plans[0].chunks, 7);
}

TEST(IclaPolicy, ZeroRowsIsInCoreAndFree) {
  const auto plans = plan(10, {{0, 1000}, {5, 1000}});
  EXPECT_TRUE(plans[0].in_core);
  EXPECT_EQ(plans[0].chunks, 0);
  EXPECT_FALSE(plans[1].in_core);
}

TEST(IclaPolicy, HugeArraysDoNotOverflow) {
  // 2^40 rows x 2^30 bytes overflows 64 bits; it must still be out of core.
  const auto plans = plan(1ull << 33, {{1ll << 40, 1ll << 30}});
  EXPECT_FALSE(plans[0].in_core);
  EXPECT_EQ(plans[0].icla_rows, 8);
}

TEST(IclaPolicy, EqualRowsPlanIsWhatEveryVariableGets) {
  // The model plans a rank's variables at once (they share its rows); the
  // result must be the plan io/ gives each variable.
  const std::vector<std::int64_t> widths{1000, 2000, 24};
  const std::uint64_t row_bytes = 3024;
  for (std::uint64_t budget : {10ull, 30'000ull, 302'400ull, 302'399ull, 1ull << 33}) {
    for (std::int64_t rows : {0ll, 1ll, 7ll, 99ll, 100ll, 101ll, 1ll << 40}) {
      for (IclaOptions options : {IclaOptions{false, 1}, IclaOptions{false, 2}, IclaOptions{true, 1}}) {
        std::vector<VariableDemand> demands;
        for (std::int64_t w : widths) demands.push_back({rows, w});
        const IclaPlan together = plan_equal_rows(budget, row_bytes, rows, options);
        for (const IclaPlan& each : plan(budget, demands, options)) {
          EXPECT_EQ(together.in_core, each.in_core) << budget << " " << rows;
          EXPECT_EQ(together.icla_rows, each.icla_rows) << budget << " " << rows;
          EXPECT_EQ(together.chunks, each.chunks) << budget << " " << rows;
        }
      }
    }
  }
}

}  // namespace
}  // namespace mheta::model
