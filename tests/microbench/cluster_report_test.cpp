#include "microbench/cluster_report.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "model/text_file.hpp"

namespace mheta::microbench {
namespace {

Sample constant(double value) {
  Sample s;
  for (int i = 0; i < 5; ++i) s.add(value * (1 + 0.01 * (i - 2)));
  return s;
}

Measurements three_ranks() {
  Measurements m;
  m.names = {"a", "b", "c"};
  m.memory_bytes = {1 << 30, 2u << 30, 1 << 29};
  m.memory_sources = {"x", "x", "x"};
  m.cpu.power = {1.0, 2.0, 1.5};
  m.cpu.power_ci95 = {0, 0.1, 0.05};
  m.cpu.kernel_s = {2e-3, 1e-3, 1.3e-3};
  for (int r = 0; r < 3; ++r) {
    DiskResult d;
    d.costs = {1e-4 * (r + 1), 2e-4, 1e-5, 1e-9, 2e-9};
    d.ci95 = {1e-5, 2e-5, 1e-6, 1e-10, 2e-10};
    d.rounds = 10;
    m.disks.push_back(d);
  }
  m.network.pairs = {
      {0, 1, {1e-6, 1e-10, 1e-7, 1e-11}}, {0, 2, {3e-6, 3e-10, 2e-7, 2e-11}}, {1, 2, {2e-6, 2e-10, 1e-7, 1e-11}}};
  m.network.send_overhead = constant(1e-7);
  m.network.recv_overhead = constant(2e-7);
  CurveFit barrier;
  barrier.curve.c0 = 1e-6;
  barrier.curve.c_log2p = 2e-6;
  barrier.fitted = {true, true, false, false, false};
  barrier.ci95 = {1e-7, 2e-7, 0, 0, 0};
  m.collectives.curves[static_cast<std::size_t>(model::Collective::barrier)] = barrier;
  m.elapsed_s = 1;
  return m;
}

TEST(ClusterReport, TheModelReadsWhatIsWritten) {
  const Options options;
  const model::Json doc = cluster_report(options, three_ranks());
  const auto path = std::filesystem::temp_directory_path() / "mheta-cluster-report-test.json";
  model::write_text_file_atomically(path, doc.dump(2));
  const model::Cluster cluster = model::read_cluster(path);
  std::filesystem::remove(path);

  ASSERT_EQ(cluster.ranks(), 3);
  EXPECT_EQ(cluster.nodes[1].name, "b");
  EXPECT_EQ(cluster.nodes[1].memory_bytes, 2u << 30);
  EXPECT_DOUBLE_EQ(cluster.nodes[2].cpu_power, 1.5);
  EXPECT_DOUBLE_EQ(cluster.nodes[2].disk.read_overhead_s, 3e-4);
  // Links are symmetric and listed both ways; the default is their mean.
  EXPECT_DOUBLE_EQ(cluster.network.link(2, 0).latency_s, 3e-6);
  EXPECT_DOUBLE_EQ(cluster.network.link(0, 2).s_per_byte, 3e-10);
  EXPECT_DOUBLE_EQ(cluster.network.default_link.latency_s, 2e-6);
  EXPECT_NEAR(cluster.network.send_overhead_s, 1e-7, 1e-12);
  ASSERT_NE(cluster.network.curve(model::Collective::barrier), nullptr);
  EXPECT_DOUBLE_EQ(cluster.network.curve(model::Collective::barrier)->seconds(4, 0), 1e-6 + 2 * 2e-6);
}

TEST(ClusterReport, EveryMeasuredFigureHasItsInterval) {
  const Options options;
  const model::Json doc = cluster_report(options, three_ranks());
  EXPECT_DOUBLE_EQ(doc["nodes"][1]["cpu_power_ci95"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(doc["nodes"][0]["disk"]["write_s_per_byte_ci95"].get<double>(), 2e-10);
  EXPECT_TRUE(doc["network"]["send_overhead_s_ci95"].is_number());
  // pairs are sorted by (from, to): (0,1) (0,2) (1,0) ...; (1,0) carries pair {0,1}'s interval.
  EXPECT_EQ(doc["network"]["pairs"][2]["from"], 1);
  EXPECT_EQ(doc["network"]["pairs"][2]["to"], 0);
  EXPECT_DOUBLE_EQ(doc["network"]["pairs"][2]["latency_s_ci95"].get<double>(), 1e-7);
  EXPECT_DOUBLE_EQ(doc["network"]["pairs"][2]["s_per_byte_ci95"].get<double>(), 1e-11);
  const auto& barrier = doc["network"]["collectives"]["barrier"];
  EXPECT_DOUBLE_EQ(barrier["c_log2p_ci95"].get<double>(), 2e-7);
  EXPECT_FALSE(barrier.contains("c_p_ci95"));  // held at 0, not fitted
  EXPECT_EQ(doc["measurement"]["ranks"], 3);
  EXPECT_TRUE(doc["measurement"]["disk"]["page_cache"].is_string());
}

// Each pair's medians become its link's curve; the default link's curve is,
// per size, the median of the pairs' medians (not their mean, which pair
// (0, 2)'s slow 64 B would pull up).
TEST(ClusterReport, EachLinkCarriesItsMeasuredCurve) {
  Measurements m = three_ranks();
  m.network.sizes = {8, 64, 512};
  m.network.pairs[0].medians = {1e-6, 2e-6, 5e-6};
  m.network.pairs[1].medians = {3e-6, 9e-6, 6e-6};  // 512 B below 64 B: made 9 us when read
  m.network.pairs[2].medians = {2e-6, 3e-6, 7e-6};
  const model::Cluster cluster = cluster_from(m);
  const model::Link& to_two = cluster.network.link(2, 0);
  ASSERT_EQ(to_two.curve_points, 3);
  EXPECT_DOUBLE_EQ(to_two.curve[0].bytes, 8);
  EXPECT_DOUBLE_EQ(to_two.curve[2].s, 9e-6);
  EXPECT_DOUBLE_EQ(cluster.network.link(1, 2).seconds(288), 3e-6 + 4e-6 * 224.0 / 448.0);
  const model::Link& fallback = cluster.network.default_link;
  ASSERT_EQ(fallback.curve_points, 3);
  EXPECT_DOUBLE_EQ(fallback.curve[0].s, 2e-6);
  EXPECT_DOUBLE_EQ(fallback.curve[1].s, 3e-6);
  EXPECT_DOUBLE_EQ(fallback.curve[2].s, 6e-6);
  EXPECT_DOUBLE_EQ(fallback.latency_s, 2e-6);  // the line is still the mean of the pairs' fits
  // Written and read back as the model reads cluster.json.
  const model::Json doc = cluster_report(Options{}, m);
  EXPECT_EQ(doc["network"]["pairs"][0]["curve"].size(), 3u);
  const model::Cluster back = model::parse_cluster(doc.dump(), "report");
  EXPECT_DOUBLE_EQ(back.network.default_link.seconds(36), 2.5e-6);
}

TEST(ClusterReport, OnePairsCurveIsTheDefaultLinksToo) {
  Measurements m = three_ranks();
  m.network.sizes = {8, 64};
  m.network.pairs.resize(1);
  m.network.pairs[0].medians = {1e-6, 4e-6};
  const model::Cluster cluster = cluster_from(m);
  EXPECT_DOUBLE_EQ(cluster.network.default_link.seconds(36), 2.5e-6);
}

}  // namespace
}  // namespace mheta::microbench
