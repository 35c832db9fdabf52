#include "interpose/emulated_network.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string_view>

namespace mheta::interpose {

namespace {

constexpr double kSecondsPerMicrosecond = 1e-6;
constexpr double kBytesPerMegabyte = 1e6;  // MB/s as network figures are given: 10^6 bytes

double latency_s(const model::JsonFields& f, const model::Json& value, const std::string& path) {
  return f.non_negative_value(value, path) * kSecondsPerMicrosecond;
}

double bandwidth_Bps(const model::JsonFields& f, const model::Json& value, const std::string& path) {
  const double mbps = f.non_negative_value(value, path);
  if (mbps == 0) f.fail(path, "must be greater than zero (a link that carries nothing never delivers)");
  return mbps * kBytesPerMegabyte;
}

LinkChange link_change(const model::JsonFields& f, const model::Json& entry, const std::string& path) {
  LinkChange change;
  if (const model::Json* v = f.optional_member(entry, "latency_us", path)) {
    change.latency_s = latency_s(f, *v, model::field_path(path, "latency_us"));
  }
  if (const model::Json* v = f.optional_member(entry, "bandwidth_MBps", path)) {
    change.bandwidth_Bps = bandwidth_Bps(f, *v, model::field_path(path, "bandwidth_MBps"));
  }
  if (!change.latency_s && !change.bandwidth_Bps) f.fail(path, "gives neither latency_us nor bandwidth_MBps");
  return change;
}

int node_index(const model::JsonFields& f, const model::Json& value, const std::string& path, int nodes) {
  if (value.is_number_integer() && value.get<std::int64_t>() >= nodes) {
    f.fail(path, "names node " + value.dump() + ", but the configuration's \"ranks\" describe " +
                     std::to_string(nodes) + " node" + (nodes == 1 ? "" : "s"));
  }
  return static_cast<int>(f.integer_value(value, path, 0, nodes - 1));
}

std::vector<NodeLinks> parse_node_links(const model::JsonFields& f, const model::Json& list, int nodes) {
  std::vector<NodeLinks> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = model::index_path("network.ranks", i);
    f.only_keys(list[i], path, {"rank", "latency_us", "bandwidth_MBps"});
    const int node = node_index(f, f.member(list[i], "rank", path), model::field_path(path, "rank"), nodes);
    for (const NodeLinks& seen : out) {
      if (seen.node == node)
        f.fail(model::field_path(path, "rank"), "node " + std::to_string(node) + " is given twice");
    }
    out.push_back({node, link_change(f, list[i], path)});
  }
  return out;
}

std::vector<PairLink> parse_pair_links(const model::JsonFields& f, const model::Json& list, int nodes) {
  std::vector<PairLink> out;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = model::index_path("network.pairs", i);
    f.only_keys(list[i], path, {"between", "latency_us", "bandwidth_MBps"});
    const std::string between_path = model::field_path(path, "between");
    const model::Json& between = f.member(list[i], "between", path);
    if (!between.is_array() || between.size() != 2) f.fail(between_path, "must be two node numbers, [a, b]");
    const int a = node_index(f, between[0], model::index_path(between_path, 0), nodes);
    const int b = node_index(f, between[1], model::index_path(between_path, 1), nodes);
    if (a == b) f.fail(between_path, "names node " + std::to_string(a) + " twice (a pair is two different nodes)");
    for (const PairLink& seen : out) {
      if (std::minmax(seen.a, seen.b) == std::minmax(a, b)) {
        f.fail(between_path, "the pair " + std::to_string(a) + ", " + std::to_string(b) + " is given twice");
      }
    }
    out.push_back({a, b, link_change(f, list[i], path)});
  }
  return out;
}

// The slower of two ends' values for one field, the one given when only one
// end gives it: the higher latency, the lower bandwidth.
template <typename Slower>
std::optional<double> slower_end(const std::optional<double>& x, const std::optional<double>& y, Slower slower) {
  if (x && y) return slower(*x, *y);
  return x ? x : y;
}

}  // namespace

int node_of_rank(int rank, int size, int nodes) {
  const std::int64_t node = size <= 0 ? 0 : (static_cast<std::int64_t>(rank) * nodes) / size;
  return static_cast<int>(std::clamp<std::int64_t>(node, 0, std::max(nodes, 1) - 1));
}

Link Network::link(int from_rank, int to_rank, int size) const {
  if (from_rank == to_rank) return {0, std::numeric_limits<double>::infinity()};
  const int from = node_of_rank(from_rank, size, nodes);
  const int to = node_of_rank(to_rank, size, nodes);
  LinkChange ends;
  for (const NodeLinks& n : ranks) {
    if (n.node != from && n.node != to) continue;
    ends.latency_s = slower_end(ends.latency_s, n.change.latency_s, [](double x, double y) { return std::max(x, y); });
    ends.bandwidth_Bps =
        slower_end(ends.bandwidth_Bps, n.change.bandwidth_Bps, [](double x, double y) { return std::min(x, y); });
  }
  Link resolved{ends.latency_s.value_or(base.latency_s), ends.bandwidth_Bps.value_or(base.bandwidth_Bps)};
  for (const PairLink& p : pairs) {
    if (std::minmax(p.a, p.b) != std::minmax(from, to)) continue;
    resolved.latency_s = p.change.latency_s.value_or(resolved.latency_s);
    resolved.bandwidth_Bps = p.change.bandwidth_Bps.value_or(resolved.bandwidth_Bps);
  }
  return resolved;
}

Network gigabit_ethernet(int nodes) {
  // 1 Gb/s carries 125 MB/s of frames; with a 1500-byte MTU, 1448 bytes of
  // TCP payload travel in each 1538 bytes on the wire (Ethernet preamble,
  // header, FCS and gap; IP and TCP headers with timestamps): 117.7 MB/s.
  // 50 us is a typical MPI-over-TCP one-way latency on such a switch.
  return Network{{50 * kSecondsPerMicrosecond, 117 * kBytesPerMegabyte}, {}, {}, nodes};
}

Network parse_network(const model::JsonFields& f, const model::Json& block, int nodes) {
  f.only_keys(block, "network", {"latency_us", "bandwidth_MBps", "ranks", "pairs"});
  Network network;
  network.nodes = nodes;
  network.base.latency_s = latency_s(f, f.member(block, "latency_us", "network"), "network.latency_us");
  network.base.bandwidth_Bps = bandwidth_Bps(f, f.member(block, "bandwidth_MBps", "network"), "network.bandwidth_MBps");
  if (f.optional_member(block, "ranks", "network")) {
    network.ranks = parse_node_links(f, f.array(block, "ranks", "network"), nodes);
  }
  if (f.optional_member(block, "pairs", "network")) {
    network.pairs = parse_pair_links(f, f.array(block, "pairs", "network"), nodes);
  }
  return network;
}

}  // namespace mheta::interpose
