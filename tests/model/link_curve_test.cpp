// A link's one-way time from its measured curve (model/link.hpp): values
// computed by hand between, at, below and above the points, the monotone
// repair, and copies.
#include <gtest/gtest.h>

#include <stdexcept>
#include <type_traits>
#include <vector>

#include "model/link.hpp"

namespace mheta::model {
namespace {

Link curved(std::vector<LinkPoint> points, double latency = 5e-7, double s_per_byte = 1e-9) {
  Link link{latency, s_per_byte};
  link.set_curve(points);
  return link;
}

// 8 B 1 us, 64 B 2 us, 512 B 10 us.
Link three_points() { return curved({{8, 1e-6}, {64, 2e-6}, {512, 10e-6}}); }

TEST(LinkCurve, WithoutACurveIsTheLine) {
  const Link link{5e-7, 1e-9};
  EXPECT_DOUBLE_EQ(link.seconds(1000), 5e-7 + 1e-9 * 1000);
  EXPECT_EQ(link.startup_seconds(), 5e-7);
  // Exactly beta * bytes, as the model's hand-computed tests expect.
  EXPECT_EQ(link.gap_seconds(1000), 1e-9 * 1000);
}

TEST(LinkCurve, AtThePointsIsTheirTime) {
  const Link link = three_points();
  EXPECT_DOUBLE_EQ(link.seconds(8), 1e-6);
  EXPECT_DOUBLE_EQ(link.seconds(64), 2e-6);
  EXPECT_DOUBLE_EQ(link.seconds(512), 10e-6);
}

TEST(LinkCurve, BetweenThePointsIsLinear) {
  const Link link = three_points();
  // 36 B: half-way from 8 to 64: 1 + 1 * 28/56 us.
  EXPECT_DOUBLE_EQ(link.seconds(36), 1.5e-6);
  // 288 B: half-way from 64 to 512: 2 + 8 * 224/448 us.
  EXPECT_DOUBLE_EQ(link.seconds(288), 6e-6);
  // 100 B: 2 + 8 * 36/448 us.
  EXPECT_DOUBLE_EQ(link.seconds(100), 2e-6 + 8e-6 * 36.0 / 448.0);
}

TEST(LinkCurve, BelowTheFirstPointIsTheFirstTime) {
  const Link link = three_points();
  EXPECT_DOUBLE_EQ(link.seconds(0), 1e-6);
  EXPECT_DOUBLE_EQ(link.seconds(4), 1e-6);
}

TEST(LinkCurve, AboveTheLastPointExtendsTheLastSegment) {
  const Link link = three_points();
  // Slope of 64 -> 512: 8 us / 448 B; 1024 B is 512 B past the last point.
  EXPECT_DOUBLE_EQ(link.seconds(1024), 10e-6 + 8e-6 / 448.0 * 512.0);
  // Not the line's 1 ns/B, which would give 10.5 us.
  EXPECT_GT(link.seconds(1024), 19e-6);
}

TEST(LinkCurve, SplitsIntoStartupAndGap) {
  const Link link = three_points();
  EXPECT_DOUBLE_EQ(link.startup_seconds(), 1e-6);
  EXPECT_DOUBLE_EQ(link.gap_seconds(288), 5e-6);
  EXPECT_DOUBLE_EQ(link.gap_seconds(4), 0.0);
  EXPECT_DOUBLE_EQ(link.startup_seconds() + link.gap_seconds(1024), link.seconds(1024));
}

TEST(LinkCurve, ANoisyMedianNeverMakesALargerMessageCheaper) {
  // 512 B measured below 64 B: raised to 64 B's 3 us.
  const Link link = curved({{8, 1e-6}, {64, 3e-6}, {512, 2e-6}, {4096, 5e-6}});
  EXPECT_DOUBLE_EQ(link.curve[2].s, 3e-6);
  EXPECT_DOUBLE_EQ(link.seconds(512), 3e-6);
  EXPECT_DOUBLE_EQ(link.seconds(288), 3e-6);  // flat between 64 and 512
  // 512 -> 4096 rises 2 us over 3584 B; 8192 B is 4096 B past the last.
  EXPECT_DOUBLE_EQ(link.seconds(8192), 5e-6 + 2e-6 / 3584.0 * 4096.0);
  double before = 0;
  for (double bytes = 0; bytes <= 10000; bytes += 8) {
    EXPECT_GE(link.seconds(bytes), before) << bytes;
    before = link.seconds(bytes);
  }
}

TEST(LinkCurve, AFlattenedLastSegmentExtendsTheLastRise) {
  // 512 B measured at 3 us, below 64 B's 4 us: flat from 64 B on after the
  // repair. Past 512 B the rate is that of the last rise, from 8 B (1 us)
  // to the last point's 4 us: 3 us over 504 B.
  const Link link = curved({{8, 1e-6}, {64, 4e-6}, {512, 3e-6}});
  EXPECT_DOUBLE_EQ(link.seconds(1016), 4e-6 + 3e-6);
}

TEST(LinkCurve, ACurveWithoutARiseExtendsAtTheLinesSlope) {
  const Link flat = curved({{8, 2e-6}, {64, 2e-6}}, 5e-7, 1e-9);
  EXPECT_DOUBLE_EQ(flat.seconds(1064), 2e-6 + 1e-9 * 1000);
  const Link one = curved({{100, 3e-6}}, 5e-7, 2e-9);
  EXPECT_DOUBLE_EQ(one.seconds(50), 3e-6);
  EXPECT_DOUBLE_EQ(one.seconds(1100), 3e-6 + 2e-9 * 1000);
}

TEST(LinkCurve, ACopyCarriesItsOwnCurveWithoutAllocating) {
  // Trivially copyable: a copy is a memcpy, never an allocation.
  static_assert(std::is_trivially_copyable_v<Link>);
  Link original = three_points();
  const Link copy = original;
  original.set_curve(std::vector<LinkPoint>{{8, 1.0}});
  EXPECT_EQ(copy.curve_points, 3);
  EXPECT_DOUBLE_EQ(copy.seconds(288), 6e-6);
  EXPECT_DOUBLE_EQ(original.seconds(8), 1.0);
}

TEST(LinkCurve, MorePointsThanItHoldsAreRefused) {
  std::vector<LinkPoint> points;
  for (int i = 0; i <= kMaxLinkPoints; ++i) points.push_back({8.0 * (i + 1), 1e-6 * (i + 1)});
  Link link;
  EXPECT_THROW(link.set_curve(points), std::length_error);
}

}  // namespace
}  // namespace mheta::model
