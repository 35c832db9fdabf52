#include "model/cluster.hpp"

#include <algorithm>
#include <cmath>

#include "model/output_file.hpp"
#include "model/text_file.hpp"

namespace mheta::model {

const Link& Network::link(int from, int to) const {
  const auto it = std::lower_bound(pairs.begin(), pairs.end(), std::pair{from, to},
                                   [](const LinkException& e, const std::pair<int, int>& key) {
                                     return std::pair{e.from, e.to} < key;
                                   });
  if (it != pairs.end() && it->from == from && it->to == to) return it->link;
  return default_link;
}

const CollectiveCurve* Network::curve(Collective op) const {
  auto own = [&](Collective c) -> const CollectiveCurve* {
    const auto& slot = collectives[static_cast<std::size_t>(c)];
    return slot ? &*slot : nullptr;
  };
  if (const CollectiveCurve* c = own(op)) return c;
  switch (op) {
    case Collective::reduce:
    case Collective::scan:
    case Collective::reduce_scatter:
    case Collective::bcast:
      return own(Collective::allreduce);
    case Collective::gather:
    case Collective::scatter:
    case Collective::alltoall:
      return own(Collective::allgather);
    default:
      return nullptr;
  }
}

std::optional<double> Network::collective_seconds(Collective op, int ranks, std::int64_t bytes) const {
  const std::vector<CollectivePoint>& points = collective_points[static_cast<std::size_t>(op)];
  const std::pair<int, std::int64_t> size{ranks, bytes};
  const auto at = std::lower_bound(points.begin(), points.end(), size,
                                   [](const CollectivePoint& p, const auto& key) { return p.size() < key; });
  if (at != points.end() && at->size() == size) return at->seconds;
  if (const CollectiveCurve* c = curve(op)) return c->seconds(ranks, static_cast<double>(bytes));
  return std::nullopt;
}

namespace {

DiskCosts read_disk(const JsonFields& f, const Json& node, const std::string& path) {
  const Json& disk = f.object(node, "disk", path);
  const std::string p = field_path(path, "disk");
  DiskCosts costs;
  for (const DiskField& field : kDiskFields) {
    costs.*field.value = field.required ? f.non_negative(disk, field.name, p) : f.non_negative_or(disk, field.name, p, 0);
  }
  return costs;
}

// A link's optional measured curve: [{"bytes": n, "s": t}, ...], bytes
// strictly increasing (an interpolation needs distinct sizes in order).
void read_link_curve(const JsonFields& f, const Json& object, const std::string& path, Link& link) {
  const Json* curve = f.optional_member(object, "curve", path);
  if (curve == nullptr) return;
  const std::string p = field_path(path, "curve");
  if (!curve->is_array()) f.fail(p, "must be an array of {\"bytes\", \"s\"} points, got " + describe(*curve));
  if (curve->empty()) f.fail(p, "must hold at least one point");
  if (curve->size() > static_cast<std::size_t>(kMaxLinkPoints)) {
    f.fail(p, "has " + std::to_string(curve->size()) + " points, more than the " + std::to_string(kMaxLinkPoints) +
                  " a link holds");
  }
  std::array<LinkPoint, kMaxLinkPoints> points{};
  for (std::size_t i = 0; i < curve->size(); ++i) {
    const std::string at = index_path(p, i);
    if (!(*curve)[i].is_object()) f.fail(at, "must be an object with bytes and s, got " + describe((*curve)[i]));
    // Whole bytes: a step of at least one byte keeps the slopes, and so
    // every time, within the limits of docs/formats.md.
    const auto bytes = static_cast<double>(f.integer((*curve)[i], "bytes", at));
    points[i] = LinkPoint{bytes, f.non_negative((*curve)[i], "s", at)};
    if (i > 0 && !(points[i].bytes > points[i - 1].bytes)) {
      f.fail(field_path(at, "bytes"), "must be larger than the point before's " + describe((*curve)[i - 1]["bytes"]));
    }
  }
  link.set_curve(std::span<const LinkPoint>(points.data(), curve->size()));
}

Link read_link(const JsonFields& f, const Json& object, const std::string& path) {
  Link link{f.non_negative(object, "latency_s", path), f.non_negative(object, "s_per_byte", path)};
  read_link_curve(f, object, path, link);
  return link;
}

// The fields of a link in cluster.json, added to `object`.
void write_link(const Link& link, Json& object) {
  object["latency_s"] = link.latency_s;
  object["s_per_byte"] = link.s_per_byte;
  if (link.curve_points == 0) return;
  Json curve = Json::array();
  for (const LinkPoint& point : link.curve_span()) {
    curve.push_back({{"bytes", static_cast<std::int64_t>(point.bytes)}, {"s", point.s}});
  }
  object["curve"] = curve;
}

CollectiveCurve read_curve(const JsonFields& f, const Json& object, const std::string& path) {
  if (!object.is_object()) f.fail(path, "must be an object of curve coefficients");
  // Coefficients may be negative (a fit), but must be numbers; the curve
  // itself is clamped at zero when evaluated.
  auto coefficient = [&](std::string_view key) {
    const Json* value = f.optional_member(object, key, path);
    if (value == nullptr) return 0.0;
    if (!value->is_number() || !std::isfinite(value->get<double>())) {
      f.fail(field_path(path, key), "must be a finite number");
    }
    if (std::fabs(value->get<double>()) > kMaxInputReal) {
      f.fail(field_path(path, key), "must be within [-1e12, 1e12], got " + describe(*value));
    }
    return value->get<double>();
  };
  // A term a cluster file lacks (c_bytes_p before it was fitted) is 0.
  CollectiveCurve curve;
  const std::array<double*, kCurveTermCount> c = curve.coefficients();
  for (int k = 0; k < kCurveTermCount; ++k) *c[static_cast<std::size_t>(k)] = coefficient(kCurveTermNames[static_cast<std::size_t>(k)]);
  return curve;
}

// network.collective_points: {"reduce_scatter": [{"ranks": 2, "bytes":
// 131072, "s": 1.6e-3}, ...], ...}; one point per (ranks, bytes).
void read_collective_points(const JsonFields& f, const Json& network, Network& net) {
  const Json* all = f.optional_member(network, "collective_points", "network");
  if (all == nullptr) return;
  if (!all->is_object()) f.fail("network.collective_points", "must be an object of arrays of points");
  for (const auto& [name, points] : all->items()) {
    const std::string path = field_path("network.collective_points", name);
    const auto op = collective_from_name(name);
    if (!op) f.fail(path, "unknown collective '" + name + "'");
    if (!points.is_array()) f.fail(path, "must be an array of {\"ranks\", \"bytes\", \"s\"} points, got " + describe(points));
    std::vector<CollectivePoint>& own = net.collective_points[static_cast<std::size_t>(*op)];
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::string at = index_path(path, i);
      if (!points[i].is_object()) f.fail(at, "must be an object with ranks, bytes and s, got " + describe(points[i]));
      own.push_back(CollectivePoint{static_cast<int>(f.integer(points[i], "ranks", at, 1, INT32_MAX)),
                                    f.integer(points[i], "bytes", at), f.non_negative(points[i], "s", at)});
    }
    sort_by_size(own);
    const auto twice = std::adjacent_find(own.begin(), own.end(), [](const CollectivePoint& a, const CollectivePoint& b) {
      return a.size() == b.size();
    });
    if (twice != own.end()) {
      f.fail(path, "has two points at " + std::to_string(twice->ranks) + " ranks and " + std::to_string(twice->bytes) +
                       " bytes");
    }
  }
}

Json collective_points_to_json(const Network& net) {
  Json all = Json::object();
  for (int i = 0; i < kCollectiveCount; ++i) {
    const std::vector<CollectivePoint>& own = net.collective_points[static_cast<std::size_t>(i)];
    if (own.empty()) continue;
    Json& points = all[std::string(collective_name(static_cast<Collective>(i)))];
    points = Json::array();
    for (const CollectivePoint& p : own) points.push_back({{"ranks", p.ranks}, {"bytes", p.bytes}, {"s", p.seconds}});
  }
  return all;
}

}  // namespace

Cluster parse_cluster(std::string_view text, std::string_view source) {
  const JsonFields f{std::string(source)};
  const Json document = parse_json_text(text, source);
  f.expect_format(document, kClusterFormat);

  Cluster cluster;
  const Json& nodes = f.array(document, "nodes", "");
  if (nodes.empty()) f.fail("nodes", "must list at least one node");
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const std::string path = index_path("nodes", i);
    const Json& node = nodes[i];
    Node n;
    n.name = f.string(node, "name", path);
    n.memory_bytes = static_cast<std::uint64_t>(f.integer(node, "memory_bytes", path));
    n.cpu_power = f.positive(node, "cpu_power", path);
    n.disk = read_disk(f, node, path);
    n.slowdown = read_slowdown(f, node, path);
    cluster.nodes.push_back(std::move(n));
  }

  const Json& network = f.object(document, "network", "");
  Network& net = cluster.network;
  net.send_overhead_s = f.non_negative(network, "send_overhead_s", "network");
  net.recv_overhead_s = f.non_negative(network, "recv_overhead_s", "network");
  net.default_link = read_link(f, network, "network");
  if (f.optional_member(network, "segment_s", "network")) net.segment_s = f.non_negative(network, "segment_s", "network");
  if (const Json* pairs = f.optional_member(network, "pairs", "network")) {
    if (!pairs->is_array()) f.fail("network.pairs", "must be an array");
    for (std::size_t i = 0; i < pairs->size(); ++i) {
      const std::string path = index_path("network.pairs", i);
      const Json& pair = (*pairs)[i];
      const auto last = static_cast<std::int64_t>(cluster.nodes.size()) - 1;
      net.pairs.push_back(LinkException{static_cast<int>(f.integer(pair, "from", path, 0, last)),
                                        static_cast<int>(f.integer(pair, "to", path, 0, last)),
                                        read_link(f, pair, path)});
    }
    std::sort(net.pairs.begin(), net.pairs.end(), [](const LinkException& a, const LinkException& b) {
      return std::pair{a.from, a.to} < std::pair{b.from, b.to};
    });
  }
  if (const Json* curves = f.optional_member(network, "collectives", "network")) {
    if (!curves->is_object()) f.fail("network.collectives", "must be an object");
    for (const auto& [name, curve] : curves->items()) {
      const std::string path = field_path("network.collectives", name);
      const auto op = collective_from_name(name);
      if (!op) f.fail(path, "unknown collective '" + name + "'");
      net.collectives[static_cast<std::size_t>(*op)] = read_curve(f, curve, path);
    }
  }
  read_collective_points(f, network, net);
  return cluster;
}

Cluster read_cluster(const std::filesystem::path& path) {
  return parse_cluster(read_text_file(path), path.string());
}

Json cluster_to_json(const Cluster& cluster) {
  Json nodes = Json::array();
  for (const Node& n : cluster.nodes) {
    Json disk = Json::object();
    for (const DiskField& field : kDiskFields) disk[field.name] = n.disk.*field.value;
    nodes.push_back({{"name", n.name}, {"memory_bytes", n.memory_bytes}, {"cpu_power", n.cpu_power}, {"disk", disk}});
    if (n.slowdown) nodes.back()["slowdown"] = slowdown_to_json(*n.slowdown);
  }
  const Network& net = cluster.network;
  Json pairs = Json::array();
  for (const LinkException& e : net.pairs) {
    Json pair = {{"from", e.from}, {"to", e.to}};
    write_link(e.link, pair);
    pairs.push_back(pair);
  }
  Json curves = Json::object();
  for (int i = 0; i < kCollectiveCount; ++i) {
    const auto& c = net.collectives[static_cast<std::size_t>(i)];
    if (!c) continue;
    Json& curve = curves[std::string(collective_name(static_cast<Collective>(i)))];
    curve = Json::object();
    const std::array<double, kCurveTermCount> values = c->coefficient_values();
    for (int k = 0; k < kCurveTermCount; ++k) {
      curve[kCurveTermNames[static_cast<std::size_t>(k)]] = values[static_cast<std::size_t>(k)];
    }
  }
  Json network = {{"send_overhead_s", net.send_overhead_s}, {"recv_overhead_s", net.recv_overhead_s}};
  write_link(net.default_link, network);
  if (net.segment_s) network["segment_s"] = *net.segment_s;
  network["pairs"] = pairs;
  network["collectives"] = curves;
  if (Json points = collective_points_to_json(net); !points.empty()) network["collective_points"] = points;
  return {{"format", kClusterFormat}, {"nodes", nodes}, {"network", network}};
}

void write_cluster(const std::filesystem::path& path, const Cluster& cluster) {
  write_output(path, cluster_to_json(cluster).dump(2) + "\n");
}

}  // namespace mheta::model
