// Checks a cluster.json written by mheta-microbench: the model reads it, it
// describes the expected number of ranks, every measured figure is there
// with its interval, and the figures are plausible (positive where a cost
// cannot be zero).
//
//   microbench_check_cluster_file FILE RANKS
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "model/cluster.hpp"
#include "model/text_file.hpp"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL: %s\n", what.c_str());
    ++failures;
  }
}

bool has_interval(const mheta::model::Json& object, const std::string& key) {
  const std::string ci = key + "_ci95";
  return object.contains(ci) && object[ci].is_number() && object[ci].get<double>() >= 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s cluster.json ranks\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  const int ranks = std::atoi(argv[2]);
  const mheta::model::Cluster cluster = mheta::model::read_cluster(path);
  const mheta::model::Json doc = mheta::model::Json::parse(mheta::model::read_text_file(path));

  expect(cluster.ranks() == ranks, "one node per rank");
  double slowest = 1e300;
  // A loaded machine can hide one node's per-byte cost in the noise (the fit
  // is then clamped at 0), but not every node's.
  int nodes_with_read_cost = 0;
  int nodes_with_hash_cost = 0;
  int nodes_with_cached_reads_cheaper = 0;
  for (int r = 0; r < cluster.ranks(); ++r) {
    const auto& node = cluster.nodes[static_cast<std::size_t>(r)];
    const auto& json = doc["nodes"][static_cast<std::size_t>(r)];
    const std::string at = "nodes[" + std::to_string(r) + "]";
    expect(!node.name.empty(), at + ".name is empty");
    expect(node.memory_bytes > 0, at + ".memory_bytes is 0");
    expect(node.cpu_power >= 1 - 1e-12, at + ".cpu_power is below the slowest rank's 1");
    slowest = std::min(slowest, node.cpu_power);
    expect(has_interval(json, "cpu_power"), at + ".cpu_power_ci95 missing");
    if (node.disk.read_s_per_byte > 0) ++nodes_with_read_cost;
    if (node.disk.mapped_hash_s_per_byte > 0) ++nodes_with_hash_cost;
    for (const mheta::model::DiskField& field : mheta::model::kDiskFields) {
      expect(has_interval(json["disk"], field.name), at + ".disk." + field.name + "_ci95 missing");
    }
    // The page cache serves bytes faster than a cold read from the disk.
    if (node.disk.cached_read_s_per_byte < node.disk.read_s_per_byte) ++nodes_with_cached_reads_cheaper;
  }
  expect(nodes_with_cached_reads_cheaper > 0,
         "on some node a read from the page cache costs less per byte than a cold one");
  expect(std::fabs(slowest - 1) < 1e-12, "the slowest rank's cpu_power is 1");
  expect(nodes_with_read_cost > 0, "some node's disk.read_s_per_byte is above 0");
  expect(nodes_with_hash_cost > 0, "some node's disk.mapped_hash_s_per_byte is above 0");

  const auto& net = cluster.network;
  const auto& jnet = doc["network"];
  // A figure may be 0 only as a fit clamped at 0 with an interval that says
  // it was not resolved (a loaded machine: ping-pongs that wait for the
  // scheduler hide the per-byte cost); 0 without an interval would be a bug.
  const auto measured = [&](double value, const char* key) {
    const std::string ci = std::string(key) + "_ci95";
    return value > 0 || (jnet.contains(ci) && jnet[ci].is_number() && jnet[ci].get<double>() > 0);
  };
  expect(measured(net.default_link.latency_s, "latency_s") && net.default_link.latency_s < 1,
         "network.latency_s in (0, 1) s, or 0 with an interval");
  expect(measured(net.default_link.s_per_byte, "s_per_byte") && net.default_link.s_per_byte < 1e-6,
         "network.s_per_byte in (0, 1e-6), or 0 with an interval");
  expect(net.send_overhead_s > 0, "network.send_overhead_s is 0");
  expect(net.recv_overhead_s > 0, "network.recv_overhead_s is 0");
  for (const char* key : {"send_overhead_s", "recv_overhead_s", "latency_s", "s_per_byte"}) {
    expect(has_interval(jnet, key), std::string("network.") + key + "_ci95 missing");
  }
  // Every link carries the medians it was fitted to as its curve: one point
  // per probed size, sizes strictly increasing from 8 bytes, times that
  // the reader has made non-decreasing and that are costs (under a second).
  const auto& sizes = doc["measurement"]["network"]["message_bytes"];
  const auto expect_curve = [&](const mheta::model::Link& link, const std::string& at) {
    expect(link.curve_points >= 2 && static_cast<std::size_t>(link.curve_points) == sizes.size(),
           at + ".curve has " + std::to_string(link.curve_points) + " points, not one per probed size");
    for (int i = 0; i < link.curve_points; ++i) {
      const auto& point = link.curve[static_cast<std::size_t>(i)];
      expect(i == 0 ? point.bytes == 8 : point.bytes > link.curve[static_cast<std::size_t>(i) - 1].bytes,
             at + ".curve bytes do not increase from 8");
      expect(point.s > 0 && point.s < 1, at + ".curve[" + std::to_string(i) + "].s is not in (0, 1) s");
    }
  };
  expect_curve(net.default_link, "network");
  for (std::size_t i = 0; i < net.pairs.size(); ++i) {
    expect_curve(net.pairs[i].link, "network.pairs[" + std::to_string(i) + "]");
  }
  expect(static_cast<int>(net.pairs.size()) == ranks * (ranks - 1), "a link for every ordered pair of ranks");
  for (std::size_t i = 0; i < net.pairs.size(); ++i) {
    expect(net.pairs[i].from != net.pairs[i].to, "no link from a rank to itself");
    expect(has_interval(jnet["pairs"][i], "latency_s") && has_interval(jnet["pairs"][i], "s_per_byte"),
           "network.pairs[" + std::to_string(i) + "] intervals missing");
  }
  for (const auto op : {mheta::model::Collective::barrier, mheta::model::Collective::bcast,
                        mheta::model::Collective::allreduce, mheta::model::Collective::allgather,
                        mheta::model::Collective::alltoall, mheta::model::Collective::reduce_scatter}) {
    const std::string name(mheta::model::collective_name(op));
    const auto& curve = net.collectives[static_cast<std::size_t>(op)];
    expect(curve.has_value(), "network.collectives." + name + " missing");
    if (!curve) continue;
    // Whatever the fit, the curve must price the measured range as a cost
    // (a noisy fit may reach 0 somewhere, where the model clamps it; a
    // second per call would be a unit error).
    for (int p = 2; p <= ranks; ++p) {
      const double t = curve->seconds(p, 4096);
      expect(t >= 0 && t < 1, "network.collectives." + name + " gives " + std::to_string(t) + " s for 4 KiB on " +
                                  std::to_string(p) + " ranks");
    }
    expect(has_interval(jnet["collectives"][name], "c0"), "network.collectives." + name + ".c0_ci95 missing");
  }
  const auto& m = doc["measurement"];
  expect(m.is_object(), "measurement missing");
  if (m.is_object()) {
    expect(m["ranks"] == ranks, "measurement.ranks");
    expect(m["disk"]["page_cache"].is_string(), "measurement.disk.page_cache says how the cache was bypassed");
    expect(m["elapsed_s"].get<double>() > 0, "measurement.elapsed_s");
  }
  if (failures == 0) std::printf("%s: %d ranks, every figure present and plausible\n", path.c_str(), ranks);
  return failures == 0 ? 0 : 1;
}
