// The collectives of an iteration, and what the cluster prices them at
// against what they cost the program when captured
// (model/iteration_collectives.hpp, model/collective_prices.hpp).
#include <gtest/gtest.h>

#include <string>

#include "model/collective_prices.hpp"
#include "model/iteration_collectives.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

CommOp timed(Collective op, std::int64_t bytes, double inside_s) {
  CommOp c = testing::collective(op, bytes);
  c.inside_s = inside_s;
  return c;
}

// Two ranks computing 1 ms, then an allreduce of 512 bytes (rank 0 inside
// it for `inside0`, rank 1 for `inside1`) and a barrier.
Profile dear_allreduce(double inside0, double inside1) {
  Profile p = testing::empty_profile({10, 10});
  const double inside[2] = {inside0, inside1};
  for (int r = 0; r < 2; ++r) {
    p.ranks[static_cast<std::size_t>(r)].sections.push_back(Section{
        {testing::compute_stage(1e-3)},
        {timed(Collective::allreduce, r == 0 ? 512 : 256, inside[r]), timed(Collective::barrier, 0, 4e-6)}});
  }
  return p;
}

// An allreduce of any size costs 10 us, a barrier 2 us.
Cluster cheap_collectives() {
  Cluster c = testing::uniform_cluster(2, 0, 0, 0, 0);
  c.network.collectives[static_cast<std::size_t>(Collective::allreduce)] = CollectiveCurve{.c0 = 1e-5};
  c.network.collectives[static_cast<std::size_t>(Collective::barrier)] = CollectiveCurve{.c0 = 2e-6};
  return c;
}

TEST(IterationCollectives, EachCallAtTheLargestBytesAndTheSmallestTimeInside) {
  const auto calls = iteration_collectives(dear_allreduce(3e-3, 2.1e-3));
  ASSERT_TRUE(calls.has_value());
  ASSERT_EQ(calls->size(), 2u);
  EXPECT_EQ((*calls)[0].op, Collective::allreduce);
  EXPECT_EQ((*calls)[0].bytes, 512);
  EXPECT_DOUBLE_EQ(*(*calls)[0].inside_s, 2.1e-3);
  EXPECT_EQ((*calls)[1].op, Collective::barrier);
  EXPECT_DOUBLE_EQ(*(*calls)[1].inside_s, 4e-6);
}

TEST(IterationCollectives, ARankWithoutItsTimeLeavesTheCallUntimed) {
  const auto calls = iteration_collectives(dear_allreduce(3e-3, -1));
  ASSERT_TRUE(calls.has_value());
  EXPECT_FALSE((*calls)[0].inside_s.has_value());
}

TEST(IterationCollectives, RanksThatDisagreeOnTheOrderGiveNothing) {
  Profile p = dear_allreduce(3e-3, 2.1e-3);
  std::swap(p.ranks[1].sections[0].comm[0], p.ranks[1].sections[0].comm[1]);
  EXPECT_FALSE(iteration_collectives(p).has_value());
}

// The allreduce cost the program 2.1 ms (its fastest rank), the cluster
// prices it at 10 us: 2.09 ms an iteration more, 207 % of a predicted
// 1.01 ms. The barrier (4 us against 2 us) is exactly 2x: not dearer.
TEST(CollectivePrices, ACollectiveDearerInTheProgramIsNamedWithBothFigures) {
  const Profile p = dear_allreduce(3e-3, 2.1e-3);
  const std::vector<CollectivePrice> dearer = dearer_than_priced(p, cheap_collectives());
  ASSERT_EQ(dearer.size(), 1u);
  EXPECT_EQ(dearer[0].call, 0);
  EXPECT_DOUBLE_EQ(dearer[0].priced_s, 1e-5);
  EXPECT_DOUBLE_EQ(dearer[0].inside_s, 2.1e-3);
  const std::string warning = collective_price_warning(p, cheap_collectives(), 1.01e-3);
  EXPECT_NE(warning.find("collective #1 of the iteration (allreduce of 512 bytes over 2 ranks) took 2.1 ms inside "
                         "the program when captured (its fastest rank), but the cluster prices it at 10 us"),
            std::string::npos)
      << warning;
  EXPECT_NE(warning.find("low by up to 2.09 ms an iteration (207%)"), std::string::npos) << warning;
}

TEST(CollectivePrices, NothingIsSaidBelowTwiceThePriceOrAFewPercentOfTheIteration) {
  // 15 us against 10 us: within 2x.
  EXPECT_EQ(collective_price_warning(dear_allreduce(1.5e-5, 2e-5), cheap_collectives(), 1.01e-3), "");
  // 2.09 ms more in an iteration of 1 s: 0.2 %.
  EXPECT_EQ(collective_price_warning(dear_allreduce(3e-3, 2.1e-3), cheap_collectives(), 1.0), "");
  // Not timed (a virtual clock's capture).
  EXPECT_EQ(collective_price_warning(dear_allreduce(-1, -1), cheap_collectives(), 1.01e-3), "");
}

TEST(CollectivePrices, APointMeasuredAtTheSizeIsThePrice) {
  Cluster c = cheap_collectives();
  c.network.collective_points[static_cast<std::size_t>(Collective::allreduce)] = {{2, 512, 2e-3}};
  EXPECT_TRUE(dearer_than_priced(dear_allreduce(3e-3, 2.1e-3), c).empty());
}

}  // namespace
}  // namespace mheta::model
