#include "microbench/cluster_report.hpp"

#include <algorithm>
#include <cmath>

namespace mheta::microbench {

namespace {

// The default link's line: the mean of the measured pairs; its interval is
// that of a mean of independent estimates.
LinearCost mean_link(const std::vector<PairCost>& pairs) {
  LinearCost mean;
  if (pairs.empty()) return mean;
  double var_alpha = 0;
  double var_beta = 0;
  for (const PairCost& p : pairs) {
    mean.overhead_s += p.cost.overhead_s;
    mean.s_per_byte += p.cost.s_per_byte;
    var_alpha += p.cost.overhead_ci95 * p.cost.overhead_ci95;
    var_beta += p.cost.s_per_byte_ci95 * p.cost.s_per_byte_ci95;
  }
  const auto n = static_cast<double>(pairs.size());
  mean.overhead_s /= n;
  mean.s_per_byte /= n;
  mean.overhead_ci95 = std::sqrt(var_alpha) / n;
  mean.s_per_byte_ci95 = std::sqrt(var_beta) / n;
  return mean;
}

// The measured curve over `sizes` (none when the pair's medians were not
// gathered, as in cluster files assembled by hand).
void set_curve(model::Link& link, const std::vector<std::int64_t>& sizes, const std::vector<double>& medians) {
  if (medians.size() != sizes.size() || sizes.empty()) return;
  std::vector<model::LinkPoint> points;
  for (std::size_t i = 0; i < sizes.size(); ++i) points.push_back({static_cast<double>(sizes[i]), medians[i]});
  link.set_curve(points);
}

// The default link's curve: per size, the median over the pairs of each
// pair's median. Pairs are measured one at a time, so a load spike slows
// one pair's turn; the median keeps it out of the link that prices every
// pair not listed, where a mean would spread it. One pair: its own.
std::vector<double> median_over_pairs(const std::vector<PairCost>& pairs, std::size_t sizes) {
  std::vector<double> medians;
  for (std::size_t i = 0; i < sizes; ++i) {
    Sample at_size;
    for (const PairCost& p : pairs) {
      if (p.medians.size() == sizes) at_size.add(p.medians[i]);
    }
    if (at_size.count() == 0) return {};
    medians.push_back(at_size.median());
  }
  return medians;
}

// JSON cannot hold infinity; an interval that was never established (too
// few samples) is written as null.
model::Json finite_or_null(double x) { return std::isfinite(x) ? model::Json(x) : model::Json(nullptr); }

// Both directions of each measured (symmetric) pair, sorted by (from, to),
// the order Network::pairs and cluster_to_json keep.
std::vector<std::pair<model::LinkException, LinearCost>> directed_pairs(const NetworkResult& network) {
  std::vector<std::pair<model::LinkException, LinearCost>> out;
  for (const PairCost& p : network.pairs) {
    model::Link link{p.cost.overhead_s, p.cost.s_per_byte};
    set_curve(link, network.sizes, p.medians);
    out.push_back({{p.from, p.to, link}, p.cost});
    out.push_back({{p.to, p.from, link}, p.cost});
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return std::pair{a.first.from, a.first.to} < std::pair{b.first.from, b.first.to};
  });
  return out;
}

}  // namespace

model::Cluster cluster_from(const Measurements& m) {
  model::Cluster cluster;
  for (std::size_t r = 0; r < m.names.size(); ++r) {
    model::Node node;
    node.name = m.names[r];
    node.memory_bytes = m.memory_bytes[r];
    node.cpu_power = m.cpu.power[r];
    node.disk = m.disks[r].costs;
    if (r < m.slowdowns.size()) node.slowdown = m.slowdowns[r];
    cluster.nodes.push_back(node);
  }
  model::Network& net = cluster.network;
  net.send_overhead_s = m.network.send_overhead.median();
  net.recv_overhead_s = m.network.recv_overhead.median();
  // Below 0 only by noise: the blocks cost nothing measurable (an emulated
  // network prices a message by its bytes).
  if (m.network.segment.count() > 0) net.segment_s = std::max(0.0, m.network.segment.median());
  const LinearCost mean = mean_link(m.network.pairs);
  net.default_link = {mean.overhead_s, mean.s_per_byte};
  set_curve(net.default_link, m.network.sizes, median_over_pairs(m.network.pairs, m.network.sizes.size()));
  for (const auto& [exception, cost] : directed_pairs(m.network)) net.pairs.push_back(exception);
  for (std::size_t k = 0; k < m.collectives.curves.size(); ++k) {
    if (m.collectives.curves[k]) net.collectives[k] = m.collectives.curves[k]->curve;
  }
  for (const ProgramPoint& p : m.collectives.program_points) {
    net.collective_points[static_cast<std::size_t>(p.op)].push_back({p.ranks, p.bytes, p.time.median()});
  }
  for (auto& points : net.collective_points) model::sort_by_size(points);
  return cluster;
}

model::Json cluster_report(const Options& options, const Measurements& m) {
  model::Json doc = model::cluster_to_json(cluster_from(m));

  model::Json& nodes = doc["nodes"];
  for (std::size_t r = 0; r < m.names.size(); ++r) {
    model::Json& node = nodes[r];
    node["cpu_power_ci95"] = finite_or_null(m.cpu.power_ci95[r]);
    const model::DiskCosts& ci = m.disks[r].ci95;
    model::Json& disk = node["disk"];
    for (const model::DiskField& field : model::kDiskFields) {
      disk[std::string(field.name) + "_ci95"] = finite_or_null(ci.*field.value);
    }
  }

  model::Json& net = doc["network"];
  net["send_overhead_s_ci95"] = finite_or_null(m.network.send_overhead.ci95());
  net["recv_overhead_s_ci95"] = finite_or_null(m.network.recv_overhead.ci95());
  if (m.network.segment.count() > 0) net["segment_s_ci95"] = finite_or_null(m.network.segment.ci95());
  const LinearCost mean = mean_link(m.network.pairs);
  net["latency_s_ci95"] = finite_or_null(mean.overhead_ci95);
  net["s_per_byte_ci95"] = finite_or_null(mean.s_per_byte_ci95);
  const auto directed = directed_pairs(m.network);
  for (std::size_t i = 0; i < directed.size(); ++i) {
    net["pairs"][i]["latency_s_ci95"] = finite_or_null(directed[i].second.overhead_ci95);
    net["pairs"][i]["s_per_byte_ci95"] = finite_or_null(directed[i].second.s_per_byte_ci95);
  }
  for (std::size_t k = 0; k < m.collectives.curves.size(); ++k) {
    const auto& fit = m.collectives.curves[k];
    if (!fit) continue;
    model::Json& curve = net["collectives"][std::string(model::collective_name(static_cast<model::Collective>(k)))];
    for (std::size_t t = 0; t < model::kCurveTermNames.size(); ++t) {
      if (fit->fitted[t]) curve[std::string(model::kCurveTermNames[t]) + "_ci95"] = finite_or_null(fit->ci95[t]);
    }
  }

  // The points' intervals, beside them (the same order: by op, ranks, bytes).
  for (const ProgramPoint& p : m.collectives.program_points) {
    for (model::Json& point : net["collective_points"][std::string(model::collective_name(p.op))]) {
      if (point["ranks"] == p.ranks && point["bytes"] == p.bytes) point["s_ci95"] = finite_or_null(p.time.ci95());
    }
  }
  model::Json program = model::Json::array();
  for (const ProgramPoint& p : m.collectives.program_points) {
    program.push_back({{"operation", p.mpi_name}, {"ranks", p.ranks}, {"bytes", p.bytes}});
  }
  model::Json skipped = model::Json::array();
  for (const Options::ProgramCollective& c : m.collectives.program_skipped) {
    skipped.push_back({{"collective", model::collective_name(c.op)}, {"ranks", c.ranks}, {"bytes", c.bytes}});
  }

  model::Json phases = model::Json::object();
  for (const auto& [name, seconds] : m.phase_end_s) phases[name] = seconds;
  model::Json disk_rounds = model::Json::array();
  for (const DiskResult& d : m.disks) disk_rounds.push_back(d.rounds);
  doc["measurement"] = {
      {"program", "mheta-microbench"},
      {"ranks", m.names.size()},
      {"budget_s", options.budget_s},
      {"elapsed_s", m.elapsed_s},
      {"phase_end_s", phases},
      {"target_relative_ci95", options.target_relative_ci95},
      {"confidence", 0.95},
      {"memory", {{"sources", m.memory_sources}}},
      {"cpu",
       {{"kernel", "5-point Jacobi sweeps over a 256x256 grid of doubles, 10 sweeps per unit"},
        {"normalisation", "slowest rank = 1"},
        {"unit_s", m.cpu.kernel_s},
        {"rounds", m.cpu.rounds}}},
      {"disk",
       {{"api",
         "MPI-IO on MPI_COMM_SELF: MPI_File_read_at, MPI_File_write_at + MPI_File_sync, "
         "MPI_File_iread_at + MPI_Wait"},
        {"page_cache", m.disk_setup.page_cache},
        {"o_direct", false},
        {"directory", m.disk_setup.directory},
        {"file_bytes", m.disk_setup.file_bytes},
        {"request_bytes", m.disk_setup.sizes},
        {"rounds_per_rank", disk_rounds}}},
      {"network",
       {{"method",
         "ping-pong, one pair at a time; one-way time = round trip / 2; curve: the median at each size (the default "
         "link's: the median over the pairs of each pair's median); latency_s and s_per_byte: a line fitted to the "
         "medians, weighted by their standard errors"},
        {"message_bytes", m.network.sizes},
        {"overhead_message_bytes", 8},
        {"pairs_measured", m.network.pairs.size()},
        {"rounds", m.network.rounds}}},
      {"collectives",
       {{"operations", m.collectives.operations},
        {"ranks", "sub-communicators of the first p ranks"},
        {"rank_counts", m.collectives.rank_counts},
        {"bytes", m.collectives.sizes},
        {"bytes_meaning",
         "bytes each rank contributes (bcast and allreduce buffer, allgather(v) send block, alltoall block per peer, "
         "reduce_scatter block received)"},
        {"points", m.collectives.points},
        {"rounds", m.collectives.rounds},
        {"profiles", options.profiles},
        {"program_points", program},
        {"program_points_not_timed", skipped}}},
  };
  return doc;
}

}  // namespace mheta::microbench
