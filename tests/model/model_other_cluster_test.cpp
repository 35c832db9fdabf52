// A profile captured on one cluster predicting another (docs/model.md,
// "Predicting another cluster"): compute and I/O seconds are normalized by
// the slowdown the rank was captured at and scaled to the target node's.
// Every expected value is worked out by hand in the comments.
#include <gtest/gtest.h>

#include <vector>

#include "model/model.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

constexpr std::int64_t kRowBytes = 1000;
constexpr double kOr = 1e-3;  // the target cluster's request overheads
constexpr double kOw = 2e-3;

// Two ranks of 80 rows, one read-write variable swept once per iteration in
// 4 ICLAs of 20 rows. Rank 0 was captured at CPU and I/O slowdown 2 and
// measured 0.8 s of compute, 12 ms reading and 28 ms writing its 80 000
// bytes; rank 1 at slowdown 1, with the same figures.
Profile captured_profile(std::optional<Slowdown> rank0, std::optional<Slowdown> rank1) {
  Profile p = testing::empty_profile({80, 80});
  p.variables = {Variable{"A", kRowBytes, Access::read_write}};
  for (auto& rank : p.ranks) {
    Stage stage = testing::compute_stage(0.8);
    stage.io.push_back(StageIo{0, IoStats{4, 80 * kRowBytes, 0.012}, IoStats{4, 80 * kRowBytes, 0.028}, false, 0});
    rank.sections.push_back(Section{{stage}, {}});
  }
  p.ranks[0].slowdown = rank0;
  p.ranks[1].slowdown = rank1;
  return p;
}

// Memory for 20 rows: 120 rows are swept in 6 ICLAs, 40 in 2.
Cluster target_cluster(std::optional<Slowdown> node0, std::optional<Slowdown> node1) {
  Cluster c = testing::uniform_cluster(2, 0, 0, 0, 0);
  for (Node& n : c.nodes) {
    n.memory_bytes = 20 * kRowBytes;
    n.disk = DiskCosts{kOr, kOw, 0, 9e-9, 9e-9};
  }
  c.nodes[0].slowdown = node0;
  c.nodes[1].slowdown = node1;
  return c;
}

const std::vector<std::int64_t> kRows = {120, 40};

// The prediction of 120 and 40 rows on the target, rank 0 captured at
// `captured0` and run on a node of `node0`; rank 1 captured and run at 1.
Prediction predicted(std::optional<Slowdown> captured0, std::optional<Slowdown> node0) {
  const std::optional<Slowdown> one = captured0 ? std::optional<Slowdown>(Slowdown{1, 1}) : std::nullopt;
  return Model(captured_profile(captured0, one), target_cluster(node0, node0 ? one : std::nullopt)).predict(kRows);
}

TEST(OtherCluster, CapturedAtCpuFactor2PredictedAtFactor1HalvesTheCompute) {
  const Model model(captured_profile(Slowdown{2, 2}, Slowdown{1, 1}),
                    target_cluster(Slowdown{1, 1}, Slowdown{1, 1}));
  const Prediction p = model.predict(kRows);
  // Compute: 0.8 s at factor 2 is 0.4 s at factor 1, for 80 rows; 120 rows: 0.6 s.
  EXPECT_NEAR(p.ranks[0].compute_s, 0.6, 1e-12);
  // Reads: 12 ms at I/O factor 2 is 6 ms at 1; r = (6 ms - 4 x 1 ms) / 80 000 B
  // = 25 ns/B; 6 ICLAs: 6 x 1 ms + 25 ns x 120 000 = 9 ms.
  // Writes: 28 ms -> 14 ms; w = (14 - 4 x 2) ms / 80 000 B = 75 ns/B;
  // 6 x 2 ms + 75 ns x 120 000 = 21 ms. In all 30 ms.
  EXPECT_NEAR(p.ranks[0].io_s, 0.030, 1e-12);
  // Rank 1 was captured at the target's rates: unchanged, 40 rows in 2 ICLAs.
  // r = (12 - 4) ms / 80 000 = 100 ns/B, w = (28 - 8) ms / 80 000 = 250 ns/B:
  // 2 x 3 ms + 350 ns x 40 000 = 20 ms; compute 0.8 x 40 / 80 = 0.4 s.
  EXPECT_NEAR(p.ranks[1].compute_s, 0.4, 1e-12);
  EXPECT_NEAR(p.ranks[1].io_s, 0.020, 1e-12);
  // What search's Prophet partitioner reads: the normalized rate.
  EXPECT_NEAR(model.compute_seconds_per_work(0), 0.4 / 80, 1e-15);
  EXPECT_EQ(model.normalization_warning(), "");
}

TEST(OtherCluster, CapturedAtFactor2PredictedAtFactor4DoublesComputeAndIo) {
  const Prediction p = predicted(Slowdown{2, 2}, Slowdown{4, 4});
  // Compute: 0.8 x 4/2 x 120/80 = 2.4 s.
  EXPECT_NEAR(p.ranks[0].compute_s, 2.4, 1e-12);
  // Reads: 12 ms x 4/2 = 24 ms; r = (24 - 4) ms / 80 000 = 250 ns/B:
  // 6 ms + 250 ns x 120 000 = 36 ms. Writes: 56 ms; w = (56 - 8) ms / 80 000
  // = 600 ns/B: 12 ms + 600 ns x 120 000 = 84 ms. In all 120 ms.
  EXPECT_NEAR(p.ranks[0].io_s, 0.120, 1e-12);
  EXPECT_NEAR(p.ranks[0].total_s, 2.52, 1e-12);
}

TEST(OtherCluster, CpuAndIoScaleApart) {
  // CPU at factor 1, disk at factor 4: compute of the first case, I/O of the second.
  const Prediction p = predicted(Slowdown{2, 2}, Slowdown{1, 4});
  EXPECT_NEAR(p.ranks[0].compute_s, 0.6, 1e-12);
  EXPECT_NEAR(p.ranks[0].io_s, 0.120, 1e-12);
  // And the other way round.
  const Prediction q = predicted(Slowdown{2, 2}, Slowdown{4, 1});
  EXPECT_NEAR(q.ranks[0].compute_s, 2.4, 1e-12);
  EXPECT_NEAR(q.ranks[0].io_s, 0.030, 1e-12);
}

TEST(OtherCluster, ProfileWithoutRatesIsTakenAsMeasuredAndSaysSo) {
  // Written before profiles recorded their rates: the times stand as
  // measured (0.8 x 120/80 = 1.2 s; reads r = (12-4) ms/80 000 = 100 ns/B,
  // w = 250 ns/B: 6 x 3 ms + 350 ns x 120 000 = 60 ms), with a warning.
  const Model model(captured_profile(std::nullopt, std::nullopt),
                    target_cluster(Slowdown{4, 4}, Slowdown{1, 1}));
  const Prediction p = model.predict(kRows);
  EXPECT_NEAR(p.ranks[0].compute_s, 1.2, 1e-12);
  EXPECT_NEAR(p.ranks[0].io_s, 0.060, 1e-12);
  EXPECT_NE(model.normalization_warning().find("for rank 0, 1,"), std::string::npos) << model.normalization_warning();
  EXPECT_NE(model.normalization_warning().find("capture it again"), std::string::npos);
}

TEST(OtherCluster, ClusterWithoutRatesIsTheOneCapturedOn) {
  // A cluster that states no rates (written by hand, or before clusters
  // recorded them) is taken as the one the profile was captured on.
  const Prediction p = predicted(Slowdown{2, 2}, std::nullopt);
  EXPECT_NEAR(p.ranks[0].compute_s, 1.2, 1e-12);
  EXPECT_NEAR(p.ranks[0].io_s, 0.060, 1e-12);
  const Model model(captured_profile(Slowdown{2, 2}, Slowdown{1, 1}), target_cluster(std::nullopt, std::nullopt));
  EXPECT_EQ(model.normalization_warning(), "");
}

TEST(OtherCluster, TheFormatsKeepTheRates) {
  Profile profile = captured_profile(Slowdown{2, 1.5}, std::nullopt);
  profile.ranks[0].sections[0].comm.push_back(testing::collective(Collective::barrier, 0));
  profile.ranks[1].sections[0].comm.push_back(testing::collective(Collective::barrier, 0));
  const Profile again = parse_profile(profile_to_json(profile).dump(), "p.json");
  ASSERT_TRUE(again.ranks[0].slowdown.has_value());
  EXPECT_EQ(*again.ranks[0].slowdown, (Slowdown{2, 1.5}));
  EXPECT_FALSE(again.ranks[1].slowdown.has_value());

  const Cluster cluster = target_cluster(Slowdown{4, 3}, std::nullopt);
  const Cluster read = parse_cluster(cluster_to_json(cluster).dump(), "c.json");
  ASSERT_TRUE(read.nodes[0].slowdown.has_value());
  EXPECT_EQ(*read.nodes[0].slowdown, (Slowdown{4, 3}));
  EXPECT_FALSE(read.nodes[1].slowdown.has_value());
}

TEST(OtherCluster, ARateOfZeroIsAnErrorNamingTheField) {
  Json doc = profile_to_json(captured_profile(Slowdown{2, 2}, Slowdown{1, 1}));
  doc["ranks"][1]["slowdown"]["io"] = 0;
  try {
    parse_profile(doc.dump(), "p.json");
    FAIL() << "a zero I/O slowdown was accepted";
  } catch (const FormatError& error) {
    EXPECT_NE(std::string(error.what()).find("ranks[1].slowdown.io"), std::string::npos) << error.what();
  }
  Json cluster = cluster_to_json(target_cluster(Slowdown{1, 1}, Slowdown{1, 1}));
  cluster["nodes"][0]["slowdown"] = 2;
  try {
    parse_cluster(cluster.dump(), "c.json");
    FAIL() << "a slowdown that is not an object was accepted";
  } catch (const FormatError& error) {
    EXPECT_NE(std::string(error.what()).find("nodes[0].slowdown"), std::string::npos) << error.what();
  }
}

}  // namespace
}  // namespace mheta::model
