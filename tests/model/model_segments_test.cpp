// Messages of non-contiguous datatypes (docs/model.md, "Messages of
// non-contiguous datatypes"): a send whose data lies in n blocks costs its
// bytes' plus (n - 1) times the cluster's segment_s, in its gap (LogGP: the
// sender is busy, and the message arrives that much later), by hand from
// Eq 3-5 as tests/model/model_communication_test.cpp computes them.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "model/model.hpp"
#include "model/strided_sends.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

namespace costs = testing::message_costs;

constexpr double kSegment = 3e-7;  // s per block
constexpr std::int64_t kSegments = 1001;
constexpr double kBlocks = kSegment * (kSegments - 1);

// Rank 0 computes t0 and sends rank 1 a message of kSegments blocks; rank
// 1 computes t1 and receives it.
Profile one_way_profile(double t0, double t1, std::int64_t segments) {
  Profile p = testing::empty_profile({100, 100});
  CommOp send = testing::send_to(1, costs::kBytes);
  send.segments = segments;
  p.ranks[0].sections.push_back(Section{{testing::compute_stage(t0)}, {send}});
  p.ranks[1].sections.push_back(Section{{testing::compute_stage(t1)}, {testing::recv_from(0, costs::kBytes)}});
  return p;
}

Cluster cluster_with_segments(std::optional<double> segment_s) {
  Cluster c = testing::uniform_cluster(2, costs::kSend, costs::kRecv, costs::kAlpha, costs::kBeta);
  c.network.segment_s = segment_s;
  return c;
}

TEST(Segments, ASendsBlocksHoldItsSenderAndDelayItsArrival) {
  const double t0 = 0.01;
  const double t1 = 0.002;
  const Model model(one_way_profile(t0, t1, kSegments), cluster_with_segments(kSegment));
  const Prediction p = model.first_iteration(std::vector<std::int64_t>{100, 100});
  // Rank 0: T_tau + O->(q) + the blocks; rank 1 waits for the message's
  // arrival, t0 + O->(q) + the blocks + T_{0->1}, then O<-.
  EXPECT_NEAR(p.ranks[0].total_s, t0 + costs::kSendQ + kBlocks, 1e-15);
  EXPECT_NEAR(p.ranks[1].wait_s, t0 + costs::kSendQ + kBlocks + costs::kTransfer - t1, 1e-15);
  EXPECT_NEAR(p.ranks[1].total_s, t0 + costs::kSendQ + kBlocks + costs::kTransfer + costs::kRecv, 1e-15);
}

TEST(Segments, OneBlockOrAClusterWithoutACostOfABlockPricesTheBytesOnly) {
  const std::vector<std::int64_t> rows{100, 100};
  const double t0 = 0.01;
  const double t1 = 0.002;
  const Prediction contiguous =
      Model(one_way_profile(t0, t1, 1), cluster_with_segments(kSegment)).first_iteration(rows);
  const Prediction unmeasured =
      Model(one_way_profile(t0, t1, kSegments), cluster_with_segments(std::nullopt)).first_iteration(rows);
  EXPECT_NEAR(contiguous.ranks[1].total_s, t0 + costs::kSendQ + costs::kTransfer + costs::kRecv, 1e-15);
  EXPECT_DOUBLE_EQ(unmeasured.ranks[1].total_s, contiguous.ranks[1].total_s);
}

TEST(Segments, ARoutedMessageKeepsItsBlocks) {
  // Rank 1 owns no rows: rank 0's message is rerouted on another link, and
  // arrives its blocks later there too: the slowest rank's total is the
  // blocks' cost above the same message in one block.
  const auto slowest = [](std::int64_t segments) {
    Profile p = testing::empty_profile({100, 100, 100});
    CommOp send = testing::send_to(1, costs::kBytes);
    send.segments = segments;
    p.ranks[0].sections.push_back(Section{{testing::compute_stage(0.01)}, {send}});
    p.ranks[1].sections.push_back(Section{{testing::compute_stage(0.002)}, {testing::recv_from(0, costs::kBytes)}});
    p.ranks[2].sections.push_back(Section{{testing::compute_stage(0.002)}, {}});
    Cluster c = testing::uniform_cluster(3, costs::kSend, costs::kRecv, costs::kAlpha, costs::kBeta);
    c.network.segment_s = kSegment;
    const Prediction routed = Model(p, c).first_iteration(std::vector<std::int64_t>{150, 0, 150});
    double longest = 0;
    for (const RankBreakdown& r : routed.ranks) longest = std::max(longest, r.total_s);
    return longest;
  };
  EXPECT_NEAR(slowest(kSegments) - slowest(1), kBlocks, 1e-12);
}

TEST(Segments, AWallClockProfileIsWarnedOfOnlyOnAClusterWithoutACostOfABlock) {
  Profile p = one_way_profile(0.01, 0.002, kSegments);
  p.clock = ProfileClock::wall;
  EXPECT_EQ(strided_sends(p).sends, 1u);
  EXPECT_EQ(strided_sends(p).segments, kSegments);
  EXPECT_EQ(strided_send_warning(p, cluster_with_segments(kSegment)), "");
  const std::string warning = strided_send_warning(p, cluster_with_segments(std::nullopt));
  EXPECT_EQ(warning.rfind("1 of the captured iteration's sends are of non-contiguous datatypes (1001 contiguous "
                          "blocks in all) and the cluster prices no block",
                          0),
            0u)
      << warning;
  p.clock = ProfileClock::virtual_time;
  EXPECT_EQ(strided_send_warning(p, cluster_with_segments(std::nullopt)), "");
  EXPECT_EQ(strided_send_warning(one_way_profile(0.01, 0.002, 1), cluster_with_segments(std::nullopt)), "");
}

}  // namespace
}  // namespace mheta::model
