// Several captures made one (model/profile_median.hpp): each time is the
// median over the captures, the shape must agree.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "model/profile_median.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

// Two ranks exchanging a row, each with one stage of compute and one
// variable's I/O; `compute`, `read_s` and `write_s` are rank 1's times.
Profile capture(double compute, double read_s, double write_s) {
  Profile p = testing::empty_profile({4, 4});
  p.variables = {Variable{"A", 100, Access::read_write}};
  for (int r = 0; r < 2; ++r) {
    Stage stage = testing::compute_stage(r == 1 ? compute : 0.5);
    stage.io.push_back(StageIo{0, IoStats{2, 400, r == 1 ? read_s : 0.1}, IoStats{2, 400, r == 1 ? write_s : 0.2},
                               false, 0});
    p.ranks[static_cast<std::size_t>(r)].sections.push_back(
        Section{{stage}, {testing::send_to(1 - r, 100, 7), testing::recv_from(1 - r, 100, 7)}});
  }
  return p;
}

TEST(ProfileMedian, EachTimeIsItsMedianOverTheCaptures) {
  // Rank 1's I/O is an outlier in the second capture, its compute in the third.
  std::vector<Profile> captures = {capture(1.0, 0.3, 0.4), capture(1.1, 9.0, 0.5), capture(7.0, 0.2, 0.45)};
  captures[0].ranks[0].in_core_compute_s = 0.6;
  captures[2].ranks[0].in_core_compute_s = 0.7;
  const Profile m = median_profile(captures);
  const Stage& stage = m.ranks[1].sections[0].stages[0];
  EXPECT_DOUBLE_EQ(stage.compute_s, 1.1);
  EXPECT_DOUBLE_EQ(stage.io[0].reads.seconds, 0.3);
  EXPECT_DOUBLE_EQ(stage.io[0].writes.seconds, 0.45);
  EXPECT_EQ(stage.io[0].reads.count, 2);
  EXPECT_EQ(stage.io[0].reads.bytes, 400);
  EXPECT_DOUBLE_EQ(m.ranks[0].sections[0].stages[0].compute_s, 0.5);
  // Of the captures that measured it: (0.6 + 0.7) / 2.
  ASSERT_TRUE(m.ranks[0].in_core_compute_s.has_value());
  EXPECT_DOUBLE_EQ(*m.ranks[0].in_core_compute_s, 0.65);
  EXPECT_FALSE(m.ranks[1].in_core_compute_s.has_value());
  EXPECT_EQ(m.ranks[1].sections[0].comm.size(), 2u);
}

// A collective's time inside is the median too, where every capture timed it.
TEST(ProfileMedian, ACollectivesTimeInsideIsItsMedian) {
  std::vector<Profile> captures = {capture(1.0, 0.3, 0.4), capture(1.0, 0.3, 0.4), capture(1.0, 0.3, 0.4)};
  const double inside[3] = {3e-4, 9e-3, 2e-4};
  for (std::size_t c = 0; c < captures.size(); ++c) {
    for (RankProfile& rank : captures[c].ranks) {
      rank.sections[0].comm.push_back(testing::collective(Collective::allreduce, 8));
      rank.sections[0].comm.back().inside_s = inside[c];
    }
  }
  captures[2].ranks[1].sections[0].comm.back().inside_s = -1;  // not timed there
  const Profile m = median_profile(captures);
  EXPECT_DOUBLE_EQ(m.ranks[0].sections[0].comm.back().inside_s, 3e-4);
  EXPECT_LT(m.ranks[1].sections[0].comm.back().inside_s, 0);
}

TEST(ProfileMedian, OneCaptureIsItself) {
  const Profile m = median_profile({capture(1.0, 0.3, 0.4)});
  EXPECT_DOUBLE_EQ(m.ranks[1].sections[0].stages[0].compute_s, 1.0);
  EXPECT_DOUBLE_EQ(m.ranks[1].sections[0].stages[0].io[0].writes.seconds, 0.4);
}

TEST(ProfileMedian, CapturesOfAnotherShapeAreNamedAndRefused) {
  const Profile a = capture(1.0, 0.3, 0.4);
  Profile more_messages = a;
  more_messages.ranks[1].sections[0].comm.push_back(testing::send_to(0, 8));
  EXPECT_EQ(shape_difference(a, more_messages), "rank 1 section 0: 2 messages against 3");
  Profile other_bytes = a;
  other_bytes.ranks[0].sections[0].stages[0].io[0].reads.bytes = 800;
  EXPECT_EQ(shape_difference(a, other_bytes), "rank 0 section 0 stage 0: I/O record 0 differs in requests or bytes");
  Profile other_peer = a;
  other_peer.ranks[0].sections[0].comm[1].tag = 8;
  EXPECT_EQ(shape_difference(a, other_peer), "rank 0 section 0: message 1 differs");
  EXPECT_EQ(shape_difference(a, capture(5.0, 5.0, 5.0)), "");
  EXPECT_THROW(median_profile({a, more_messages}), std::invalid_argument);
  EXPECT_THROW(median_profile({}), std::invalid_argument);
}

}  // namespace
}  // namespace mheta::model
