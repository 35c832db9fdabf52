#include "search/synthetic_instance.hpp"

#include <cmath>

#include "model/icla_policy.hpp"

namespace mheta::search {

std::string_view pattern_name(Pattern pattern) {
  switch (pattern) {
    case Pattern::none:
      return "none";
    case Pattern::neighbour:
      return "neighbour";
    case Pattern::pipelined:
      return "pipelined";
    case Pattern::reduction:
      return "reduction";
  }
  return "?";
}

namespace {

model::CommOp message(model::CommKind kind, int peer, std::int64_t bytes, int tag, int from_variable = -1) {
  return {.kind = kind, .peer = peer, .bytes = bytes, .tag = tag, .from_variable = from_variable};
}

// One sweep of every variable, as the instrumented (forced out of core)
// iteration measured it.
std::vector<model::StageIo> sweep(const SyntheticProgram& program, const SyntheticNode& node, std::int64_t rows) {
  std::vector<model::VariableDemand> demands;
  for (const SyntheticVariable& v : program.variables) demands.push_back({rows, v.bytes_per_row});
  std::vector<model::IclaPlan> plans(demands.size());
  model::plan_iclas(node.memory_bytes, demands, model::IclaOptions{true, 1}, plans);
  std::vector<model::StageIo> io;
  for (std::size_t m = 0; m < program.variables.size(); ++m) {
    model::StageIo s;
    s.variable = static_cast<int>(m);
    const std::int64_t bytes = rows * program.variables[m].bytes_per_row;
    s.reads = {plans[m].chunks, bytes,
               static_cast<double>(plans[m].chunks) * node.read_overhead_s + static_cast<double>(bytes) * node.read_s_per_byte};
    if (program.variables[m].read_write) {
      s.writes = {plans[m].chunks, bytes,
                  static_cast<double>(plans[m].chunks) * node.write_overhead_s +
                      static_cast<double>(bytes) * node.write_s_per_byte};
    }
    io.push_back(s);
  }
  return io;
}

std::vector<model::Section> sections(const SyntheticProgram& program, const SyntheticNode& node, int rank, int ranks,
                                     std::int64_t rows) {
  using model::CommKind;
  const double compute = node.compute_s_per_row * static_cast<double>(rows);
  const std::int64_t bytes = program.message_bytes;
  std::vector<model::Section> out;
  switch (program.pattern) {
    case Pattern::none:
    case Pattern::reduction: {
      model::Section s;
      s.stages.push_back(model::Stage{compute, sweep(program, node, rows)});
      if (program.pattern == Pattern::reduction) {
        model::CommOp op;
        op.kind = CommKind::collective;
        op.collective = model::Collective::allreduce;
        op.bytes = bytes;
        s.comm.push_back(op);
      }
      out.push_back(s);
      break;
    }
    case Pattern::neighbour: {
      // Halo exchange: boundary rows sent from the (out-of-core) first variable.
      model::Section s;
      s.stages.push_back(model::Stage{compute, sweep(program, node, rows)});
      if (rank > 0) s.comm.push_back(message(CommKind::send, rank - 1, bytes, 0, 0));
      if (rank + 1 < ranks) s.comm.push_back(message(CommKind::send, rank + 1, bytes, 1, 0));
      if (rank > 0) s.comm.push_back(message(CommKind::recv, rank - 1, bytes, 1));
      if (rank + 1 < ranks) s.comm.push_back(message(CommKind::recv, rank + 1, bytes, 0));
      out.push_back(s);
      break;
    }
    case Pattern::pipelined: {
      // Wavefront: tile t waits for tile t of rank-1, then feeds rank+1.
      if (rank > 0) {
        model::Section first;
        first.comm.push_back(message(CommKind::recv, rank - 1, bytes, 0));
        out.push_back(first);
      }
      for (int t = 0; t < program.tiles; ++t) {
        model::Section s;
        s.stages.push_back(model::Stage{compute / program.tiles, t == 0 ? sweep(program, node, rows)
                                                                        : std::vector<model::StageIo>{}});
        if (rank + 1 < ranks) s.comm.push_back(message(CommKind::send, rank + 1, bytes, t));
        if (rank > 0 && t + 1 < program.tiles) s.comm.push_back(message(CommKind::recv, rank - 1, bytes, t + 1));
        out.push_back(s);
      }
      break;
    }
  }
  return out;
}

}  // namespace

Instance synthetic_instance(const SyntheticProgram& program, const std::vector<SyntheticNode>& nodes,
                            const SyntheticNetwork& network) {
  Instance instance;
  model::Profile& p = instance.profile;
  const int ranks = static_cast<int>(nodes.size());
  p.program = "synthetic-" + std::string(pattern_name(program.pattern));
  p.iterations = program.iterations;
  p.forced_out_of_core = true;
  p.distribution = model::block_distribution(program.rows, ranks);
  for (std::size_t m = 0; m < program.variables.size(); ++m) {
    p.variables.push_back(model::Variable{"v" + std::to_string(m), program.variables[m].bytes_per_row,
                                          program.variables[m].read_write ? model::Access::read_write
                                                                          : model::Access::read_only});
  }
  model::Cluster& c = instance.cluster;
  double slowest = 0;
  for (const SyntheticNode& n : nodes) slowest = std::max(slowest, n.compute_s_per_row);
  for (int r = 0; r < ranks; ++r) {
    const SyntheticNode& n = nodes[static_cast<std::size_t>(r)];
    model::RankProfile rp;
    rp.host = "node" + std::to_string(r);
    rp.memory_budget_bytes = n.memory_bytes;
    rp.sections = sections(program, n, r, ranks, p.distribution.rows[static_cast<std::size_t>(r)]);
    p.ranks.push_back(std::move(rp));
    model::Node node;
    node.name = "node" + std::to_string(r);
    node.memory_bytes = n.memory_bytes;
    node.cpu_power = slowest / n.compute_s_per_row;
    node.disk = model::DiskCosts{n.read_overhead_s, n.write_overhead_s, 0, n.read_s_per_byte, n.write_s_per_byte};
    c.nodes.push_back(node);
  }
  c.network.send_overhead_s = network.send_overhead_s;
  c.network.recv_overhead_s = network.recv_overhead_s;
  c.network.default_link = model::Link{network.latency_s, network.s_per_byte};
  model::CollectiveCurve allreduce;
  allreduce.c0 = network.allreduce_c0;
  allreduce.c_log2p = network.allreduce_log2p;
  allreduce.c_bytes_log2p = network.s_per_byte;
  c.network.collectives[static_cast<std::size_t>(model::Collective::allreduce)] = allreduce;
  model::CollectiveCurve barrier;
  barrier.c0 = network.allreduce_c0;
  c.network.collectives[static_cast<std::size_t>(model::Collective::barrier)] = barrier;
  instance.description = p.program + ", " + std::to_string(ranks) + " ranks, " + std::to_string(program.rows) + " rows";
  return instance;
}

Instance random_instance(std::mt19937_64& random, int ranks, std::int64_t rows, std::optional<Pattern> pattern) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  // Log-uniform in [lo, hi]: parameters spanning orders of magnitude.
  auto between = [&](double lo, double hi) { return lo * std::pow(hi / lo, unit(random)); };
  SyntheticProgram program;
  program.rows = rows;
  const int variables = 1 + static_cast<int>(unit(random) * 2);
  std::int64_t bytes_per_row = 0;
  for (int m = 0; m < variables; ++m) {
    program.variables.push_back(SyntheticVariable{static_cast<std::int64_t>(between(1024, 16384)), unit(random) < 0.5});
    bytes_per_row += program.variables.back().bytes_per_row;
  }
  constexpr Pattern kPatterns[] = {Pattern::neighbour, Pattern::pipelined, Pattern::reduction};
  program.pattern = kPatterns[static_cast<std::size_t>(unit(random) * 3) % 3];
  if (pattern) program.pattern = *pattern;
  program.message_bytes = static_cast<std::int64_t>(between(1024, 1 << 20));
  program.tiles = 2 + static_cast<int>(unit(random) * 7);

  SyntheticNetwork network{between(1e-6, 1e-4), between(1e-6, 1e-4), between(1e-5, 1e-3), between(1e-9, 1e-7),
                           between(1e-5, 1e-3), between(1e-5, 1e-3)};

  const int types = 1 + static_cast<int>(unit(random) * 3);
  const double share_bytes = static_cast<double>(rows) / ranks * static_cast<double>(bytes_per_row);
  std::vector<SyntheticNode> kinds;
  for (int t = 0; t < types; ++t) {
    SyntheticNode n;
    n.compute_s_per_row = between(1e-5, 1e-3);
    // From a quarter to four times a Blk share: some ranks out of core.
    n.memory_bytes = static_cast<std::uint64_t>(between(0.25, 4.0) * share_bytes);
    n.read_overhead_s = between(1e-4, 5e-3);
    n.write_overhead_s = between(1e-4, 5e-3);
    n.read_s_per_byte = between(5e-10, 5e-8);
    n.write_s_per_byte = between(5e-10, 5e-8);
    kinds.push_back(n);
  }
  std::vector<SyntheticNode> nodes;
  for (int r = 0; r < ranks; ++r) nodes.push_back(kinds[static_cast<std::size_t>(unit(random) * types) % kinds.size()]);
  return synthetic_instance(program, nodes, network);
}

}  // namespace mheta::search
