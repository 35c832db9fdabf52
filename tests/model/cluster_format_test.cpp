#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "model/cluster.hpp"
#include "model/format_error.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

Json valid_cluster_json() {
  Cluster c = testing::uniform_cluster(2, 1e-6, 2e-6, 5e-5, 1e-9);
  c.nodes[1].disk = DiskCosts{1e-4, 2e-4, 3e-5, 1e-8, 2e-8};
  c.network.pairs.push_back(LinkException{0, 1, Link{7e-5, 3e-9}});
  return cluster_to_json(c);
}

// Applies `edit` to a valid document and returns the reader's error.
FormatError error_after(const std::function<void(Json&)>& edit) {
  Json doc = valid_cluster_json();
  edit(doc);
  try {
    parse_cluster(doc.dump(), "cluster.json");
  } catch (const FormatError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << doc.dump();
  return FormatError("", "", "");
}

TEST(ClusterFormat, RoundTripsThroughJson) {
  const Cluster c = parse_cluster(valid_cluster_json().dump(), "cluster.json");
  ASSERT_EQ(c.ranks(), 2);
  EXPECT_DOUBLE_EQ(c.nodes[1].disk.async_read_overhead_s, 3e-5);
  EXPECT_DOUBLE_EQ(c.network.link(0, 1).latency_s, 7e-5);
  EXPECT_DOUBLE_EQ(c.network.link(1, 0).latency_s, 5e-5);  // the default
  ASSERT_NE(c.network.curve(Collective::allreduce), nullptr);
  EXPECT_EQ(c.network.curve(Collective::reduce), c.network.curve(Collective::allreduce));
}

// A non-contiguous message's cost per block: written when measured, read
// back, absent in a file written before it was measured, never negative.
TEST(ClusterFormat, TheCostOfABlockRoundTripsAndIsOptional) {
  EXPECT_FALSE(parse_cluster(valid_cluster_json().dump(), "cluster.json").network.segment_s);
  Cluster c = testing::uniform_cluster(2, 1e-6, 2e-6, 5e-5, 1e-9);
  c.network.segment_s = 2.5e-8;
  const Json doc = cluster_to_json(c);
  EXPECT_EQ(doc["network"]["segment_s"], 2.5e-8);
  const Cluster back = parse_cluster(doc.dump(), "cluster.json");
  ASSERT_TRUE(back.network.segment_s);
  EXPECT_DOUBLE_EQ(*back.network.segment_s, 2.5e-8);
  EXPECT_EQ(error_after([](Json& d) { d["network"]["segment_s"] = -1e-9; }).where(), "network.segment_s");
}

// A two-rank cluster file with `curve` for `op`.
Json json_with_curve(Collective op, const CollectiveCurve& curve) {
  Cluster c = testing::uniform_cluster(2, 1e-6, 2e-6, 5e-5, 1e-9);
  c.network.collectives[static_cast<std::size_t>(op)] = curve;
  return cluster_to_json(c);
}

// Every curve coefficient survives the round trip; a file written before
// the ring term existed (no c_bytes_p) reads it as 0.
TEST(ClusterFormat, CurveTermsRoundTripAndTheRingTermDefaultsToZero) {
  CollectiveCurve ring;
  ring.c_log2p = 5e-5;
  ring.c_bytes = -1e-9;
  ring.c_bytes_p = 1e-9;
  Json doc = json_with_curve(Collective::allgather, ring);
  const Cluster back = parse_cluster(doc.dump(), "cluster.json");
  ASSERT_NE(back.network.curve(Collective::allgather), nullptr);
  EXPECT_DOUBLE_EQ(back.network.curve(Collective::allgather)->c_bytes_p, 1e-9);
  EXPECT_DOUBLE_EQ(back.network.curve(Collective::allgather)->c_bytes, -1e-9);
  doc["network"]["collectives"]["allgather"].erase("c_bytes_p");
  const Cluster old = parse_cluster(doc.dump(), "cluster.json");
  EXPECT_DOUBLE_EQ(old.network.curve(Collective::allgather)->c_bytes_p, 0.0);
  EXPECT_DOUBLE_EQ(old.network.curve(Collective::allgather)->c_log2p, 5e-5);
}

// A file with an alltoall (reduce_scatter) curve prices alltoall
// (reduce_scatter) by it; a file written before they were measured still
// reads, and they borrow allgather's (allreduce's) curve.
TEST(ClusterFormat, AlltoallAndReduceScatterCurvesAreReadAndOlderFilesBorrow) {
  for (const auto& [op, lender] : {std::pair{Collective::alltoall, Collective::allgather},
                                  std::pair{Collective::reduce_scatter, Collective::allreduce}}) {
    const std::string name(collective_name(op));
    Json doc = json_with_curve(op, {.c0 = -5e-5, .c_p = 5e-5});
    const Cluster back = parse_cluster(doc.dump(), "cluster.json");
    ASSERT_NE(back.network.curve(op), nullptr) << name;
    EXPECT_DOUBLE_EQ(back.network.curve(op)->c_p, 5e-5) << name;
    EXPECT_NE(back.network.curve(op), back.network.curve(lender)) << name;
    doc["network"]["collectives"].erase(name);
    const Cluster old = parse_cluster(doc.dump(), "cluster.json");
    EXPECT_EQ(old.network.curve(op), old.network.curve(lender)) << name;
  }
}

TEST(ClusterFormat, IgnoresConfidenceIntervalsAndUnknownFields) {
  Json doc = valid_cluster_json();
  doc["nodes"][0]["cpu_power_ci95"] = 0.01;
  doc["measurement"] = {{"disk", "posix_fadvise"}};
  EXPECT_NO_THROW(parse_cluster(doc.dump(), "cluster.json"));
}

TEST(ClusterFormat, UnknownFormatVersion) {
  const FormatError e = error_after([](Json& d) { d["format"] = "mheta-cluster/9"; });
  EXPECT_EQ(e.where(), "format");
  EXPECT_NE(e.reason().find("unknown format version"), std::string::npos);
}

TEST(ClusterFormat, MissingField) {
  const FormatError e = error_after([](Json& d) { d["nodes"][1]["disk"].erase("read_s_per_byte"); });
  EXPECT_EQ(e.where(), "nodes[1].disk.read_s_per_byte");
  EXPECT_NE(e.reason().find("missing"), std::string::npos);
}

TEST(ClusterFormat, NegativeTime) {
  const FormatError e = error_after([](Json& d) { d["network"]["send_overhead_s"] = -1e-6; });
  EXPECT_EQ(e.where(), "network.send_overhead_s");
  EXPECT_NE(e.reason().find("negative"), std::string::npos);
}

TEST(ClusterFormat, NaNWrittenAsStringOrNull) {
  EXPECT_EQ(error_after([](Json& d) { d["network"]["latency_s"] = "NaN"; }).where(), "network.latency_s");
  EXPECT_EQ(error_after([](Json& d) { d["network"]["latency_s"] = nullptr; }).where(), "network.latency_s");
}

TEST(ClusterFormat, NonIntegerMemory) {
  EXPECT_NE(error_after([](Json& d) { d["nodes"][0]["memory_bytes"] = 1.5; }).reason().find("whole number"),
            std::string::npos);
}

TEST(ClusterFormat, OverflowingMemory) {
  std::string text = valid_cluster_json().dump();
  const std::string field = "\"memory_bytes\":" + std::to_string(1ull << 40);
  text.replace(text.find(field), field.size(), "\"memory_bytes\":99999999999999999999999");
  try {
    parse_cluster(text, "cluster.json");
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_EQ(e.where(), "nodes[0].memory_bytes");
    EXPECT_NE(e.reason().find("too large"), std::string::npos);
  }
}

TEST(ClusterFormat, ZeroCpuPower) {
  EXPECT_EQ(error_after([](Json& d) { d["nodes"][0]["cpu_power"] = 0; }).where(), "nodes[0].cpu_power");
}

TEST(ClusterFormat, PairNamingAMissingNode) {
  const FormatError e = error_after([](Json& d) { d["network"]["pairs"][0]["to"] = 5; });
  EXPECT_EQ(e.where(), "network.pairs[0].to");
}

TEST(ClusterFormat, UnknownCollective) {
  const FormatError e = error_after([](Json& d) { d["network"]["collectives"]["allsort"] = Json::object(); });
  EXPECT_NE(e.reason().find("allsort"), std::string::npos);
}

// A measured curve on the default link and on a pair: written, read back,
// and priced from; files without one keep the line.
Json json_with_link_curves() {
  Cluster c = testing::uniform_cluster(2, 1e-6, 2e-6, 5e-5, 1e-9);
  c.network.default_link.set_curve(std::vector<LinkPoint>{{8, 2.5e-7}, {4096, 1e-6}, {262144, 5e-5}});
  Link pair{7e-5, 3e-9};
  pair.set_curve(std::vector<LinkPoint>{{8, 1e-6}, {64, 2e-6}});
  c.network.pairs.push_back(LinkException{0, 1, pair});
  return cluster_to_json(c);
}

TEST(ClusterFormat, LinkCurvesRoundTrip) {
  const Json doc = json_with_link_curves();
  ASSERT_TRUE(doc["network"]["curve"].is_array());
  EXPECT_EQ(doc["network"]["curve"][1]["bytes"], 4096);
  EXPECT_DOUBLE_EQ(doc["network"]["curve"][1]["s"].get<double>(), 1e-6);
  EXPECT_DOUBLE_EQ(doc["network"]["latency_s"].get<double>(), 5e-5);  // the line is kept beside it
  const Cluster back = parse_cluster(doc.dump(), "cluster.json");
  const Link& default_link = back.network.link(1, 0);
  ASSERT_EQ(default_link.curve_points, 3);
  EXPECT_DOUBLE_EQ(default_link.curve[2].bytes, 262144);
  EXPECT_DOUBLE_EQ(default_link.s_per_byte, 1e-9);
  // 2052 B: half-way from 8 B to 4096 B.
  EXPECT_DOUBLE_EQ(default_link.seconds(2052), 2.5e-7 + 0.5 * 7.5e-7);
  EXPECT_DOUBLE_EQ(back.network.link(0, 1).seconds(36), 1.5e-6);
  EXPECT_EQ(cluster_to_json(back), doc);
}

TEST(ClusterFormat, ALinkWithoutACurveKeepsTheLine) {
  const Cluster c = parse_cluster(valid_cluster_json().dump(), "cluster.json");
  EXPECT_EQ(c.network.link(0, 1).curve_points, 0);
  EXPECT_DOUBLE_EQ(c.network.link(0, 1).seconds(1000), 7e-5 + 3e-9 * 1000);
  EXPECT_FALSE(cluster_to_json(c)["network"].contains("curve"));
}

TEST(ClusterFormat, LinkCurveTimesAreMadeNonDecreasingWhenRead) {
  Json doc = json_with_link_curves();
  doc["network"]["curve"][1]["s"] = 1e-7;  // below 8 B's 2.5e-7
  const Cluster c = parse_cluster(doc.dump(), "cluster.json");
  EXPECT_DOUBLE_EQ(c.network.default_link.curve[1].s, 2.5e-7);
  EXPECT_DOUBLE_EQ(c.network.default_link.seconds(2052), 2.5e-7);
}

// The reader's error for a link curve edited by `edit`.
FormatError curve_error(const std::function<void(Json&)>& edit) {
  Json doc = json_with_link_curves();
  edit(doc);
  try {
    parse_cluster(doc.dump(), "cluster.json");
  } catch (const FormatError& e) {
    EXPECT_EQ(e.file(), "cluster.json");
    return e;
  }
  ADD_FAILURE() << "no error for " << doc.dump();
  return FormatError("", "", "");
}

TEST(ClusterFormat, MalformedLinkCurvesNameTheField) {
  EXPECT_EQ(curve_error([](Json& d) { d["network"]["curve"] = 5; }).where(), "network.curve");
  EXPECT_EQ(curve_error([](Json& d) { d["network"]["curve"] = Json::array(); }).where(), "network.curve");
  EXPECT_EQ(curve_error([](Json& d) { d["network"]["curve"][0] = 5; }).where(), "network.curve[0]");
  EXPECT_EQ(curve_error([](Json& d) { d["network"]["curve"][1].erase("bytes"); }).where(), "network.curve[1].bytes");
  EXPECT_EQ(curve_error([](Json& d) { d["network"]["pairs"][0]["curve"][1].erase("s"); }).where(),
            "network.pairs[0].curve[1].s");
  EXPECT_EQ(curve_error([](Json& d) { d["network"]["curve"][2]["s"] = -1e-6; }).where(), "network.curve[2].s");
  EXPECT_EQ(curve_error([](Json& d) { d["network"]["curve"][2]["s"] = "NaN"; }).where(), "network.curve[2].s");
  EXPECT_EQ(curve_error([](Json& d) { d["network"]["curve"][0]["bytes"] = -8; }).where(), "network.curve[0].bytes");
  EXPECT_EQ(curve_error([](Json& d) { d["network"]["curve"][0]["bytes"] = 7.5; }).where(),
            "network.curve[0].bytes");
  const FormatError order = curve_error([](Json& d) { d["network"]["curve"][2]["bytes"] = 4096; });
  EXPECT_EQ(order.where(), "network.curve[2].bytes");
  EXPECT_NE(order.reason().find("larger than"), std::string::npos);
  const FormatError many = curve_error([](Json& d) {
    Json& curve = d["network"]["curve"];
    curve = Json::array();
    for (int i = 0; i <= kMaxLinkPoints; ++i) curve.push_back({{"bytes", 8 << i}, {"s", 1e-6 * (i + 1)}});
  });
  EXPECT_EQ(many.where(), "network.curve");
  EXPECT_NE(many.reason().find("more than the 16"), std::string::npos);
}

// Collectives timed at a program's sizes: written sorted, read back, and
// priced from where (ranks, bytes) match exactly; the curve elsewhere.
TEST(ClusterFormat, CollectivePointsRoundTripAndPriceOnlyTheirOwnSizes) {
  Cluster c = parse_cluster(valid_cluster_json().dump(), "cluster.json");
  c.network.collectives[static_cast<std::size_t>(Collective::reduce_scatter)] = CollectiveCurve{.c0 = 1e-5, .c_bytes = 1e-10};
  c.network.collective_points[static_cast<std::size_t>(Collective::reduce_scatter)] = {{2, 131072, 1.9e-4},
                                                                                        {4, 8, 3e-6}};
  c.network.collective_points[static_cast<std::size_t>(Collective::scan)] = {{2, 64, 2e-6}};
  Cluster back = parse_cluster(cluster_to_json(c).dump(), "cluster.json");
  const Network& net = back.network;
  EXPECT_DOUBLE_EQ(*net.collective_seconds(Collective::reduce_scatter, 2, 131072), 1.9e-4);
  EXPECT_DOUBLE_EQ(*net.collective_seconds(Collective::reduce_scatter, 4, 8), 3e-6);
  // Another size, or the same size at another rank count: the curve.
  EXPECT_DOUBLE_EQ(*net.collective_seconds(Collective::reduce_scatter, 2, 65536), 1e-5 + 1e-10 * 65536);
  EXPECT_DOUBLE_EQ(*net.collective_seconds(Collective::reduce_scatter, 3, 131072), 1e-5 + 1e-10 * 131072);
  EXPECT_DOUBLE_EQ(*net.collective_seconds(Collective::scan, 2, 64), 2e-6);
  // scan has no curve of its own: elsewhere it borrows allreduce's.
  back.network.collectives[static_cast<std::size_t>(Collective::allreduce)] = CollectiveCurve{.c0 = 7e-6};
  EXPECT_DOUBLE_EQ(*back.network.collective_seconds(Collective::scan, 2, 128), 7e-6);
  back.network.collectives[static_cast<std::size_t>(Collective::allreduce)].reset();
  EXPECT_FALSE(back.network.collective_seconds(Collective::scan, 2, 128).has_value());
  EXPECT_DOUBLE_EQ(*back.network.collective_seconds(Collective::scan, 2, 64), 2e-6);
  EXPECT_FALSE(cluster_to_json(c)["network"]["collective_points"].contains("allreduce"));
  // Points listed out of order are sorted when read.
  Json doc = cluster_to_json(c);
  std::swap(doc["network"]["collective_points"]["reduce_scatter"][0], doc["network"]["collective_points"]["reduce_scatter"][1]);
  EXPECT_DOUBLE_EQ(*parse_cluster(doc.dump(), "c.json").network.collective_seconds(Collective::reduce_scatter, 2, 131072),
                   1.9e-4);
}

TEST(ClusterFormat, MalformedCollectivePointsNameTheField) {
  auto error = [](const std::function<void(Json&)>& edit) {
    return error_after([&](Json& d) {
      d["network"]["collective_points"] = {{"allreduce", {{{"ranks", 2}, {"bytes", 8}, {"s", 1e-6}}}}};
      edit(d["network"]["collective_points"]);
    });
  };
  EXPECT_EQ(error([](Json& p) { p = 5; }).where(), "network.collective_points");
  EXPECT_EQ(error([](Json& p) { p["allsort"] = Json::array(); }).where(), "network.collective_points.allsort");
  EXPECT_EQ(error([](Json& p) { p["allreduce"] = 5; }).where(), "network.collective_points.allreduce");
  EXPECT_EQ(error([](Json& p) { p["allreduce"][0] = 5; }).where(), "network.collective_points.allreduce[0]");
  EXPECT_EQ(error([](Json& p) { p["allreduce"][0]["ranks"] = 0; }).where(),
            "network.collective_points.allreduce[0].ranks");
  EXPECT_EQ(error([](Json& p) { p["allreduce"][0]["bytes"] = 7.5; }).where(),
            "network.collective_points.allreduce[0].bytes");
  EXPECT_EQ(error([](Json& p) { p["allreduce"][0]["s"] = -1e-6; }).where(), "network.collective_points.allreduce[0].s");
  EXPECT_EQ(error([](Json& p) { p["allreduce"][0].erase("s"); }).where(), "network.collective_points.allreduce[0].s");
  const FormatError twice = error([](Json& p) { p["allreduce"].push_back(p["allreduce"][0]); });
  EXPECT_EQ(twice.where(), "network.collective_points.allreduce");
  EXPECT_NE(twice.reason().find("two points at 2 ranks and 8 bytes"), std::string::npos);
}

TEST(ClusterFormat, SyntaxErrorGivesLineAndColumn) {
  try {
    parse_cluster("{\n  \"format\": \"mheta-cluster/1\",\n  \"nodes\": [,]\n}", "c.json");
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_EQ(e.file(), "c.json");
    EXPECT_EQ(e.where().substr(0, 2), "3:");
  }
}

}  // namespace
}  // namespace mheta::model
