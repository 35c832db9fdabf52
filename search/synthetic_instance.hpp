#pragma once
// Synthetic programs on synthetic clusters, in the spirit of the Prophesy
// simulator (Weissman's dissertation §6.1): a profile.json and a
// cluster.json built from a handful of parameters, as if the program had
// been instrumented under Blk with every variable forced out of core. Used
// by the search study, the tests and the benchmarks.
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/profile.hpp"

namespace mheta::search {

enum class Pattern { none, neighbour, pipelined, reduction };
std::string_view pattern_name(Pattern pattern);

struct SyntheticNode {
  double compute_s_per_row = 1e-4;
  std::uint64_t memory_bytes = 1ull << 30;
  double read_overhead_s = 0;
  double write_overhead_s = 0;
  double read_s_per_byte = 0;
  double write_s_per_byte = 0;
};

struct SyntheticVariable {
  std::int64_t bytes_per_row = 1024;
  bool read_write = false;
};

struct SyntheticProgram {
  std::int64_t rows = 1000;
  std::vector<SyntheticVariable> variables;
  Pattern pattern = Pattern::none;
  std::int64_t message_bytes = 0;  // each neighbour message, tile message or reduction
  int tiles = 1;                   // pipelined: sections per iteration
  std::int64_t iterations = 10;
};

struct SyntheticNetwork {
  double send_overhead_s = 0;
  double recv_overhead_s = 0;
  double latency_s = 0;
  double s_per_byte = 0;
  double allreduce_c0 = 0;
  double allreduce_log2p = 0;
};

struct Instance {
  model::Profile profile;
  model::Cluster cluster;
  std::string description;
};

// The profile (instrumented with Blk, every variable forced out of core:
// one read sweep per iteration, and a write-back for read-write variables)
// and the cluster of `nodes` running `program`.
Instance synthetic_instance(const SyntheticProgram& program, const std::vector<SyntheticNode>& nodes,
                            const SyntheticNetwork& network);

// A random instance: 1 to 3 node types over `ranks` ranks (so that some
// nodes are identical), compute, disks and memory varying by an order of
// magnitude, 1 or 2 variables, a random communication pattern (or `pattern`).
Instance random_instance(std::mt19937_64& random, int ranks, std::int64_t rows,
                         std::optional<Pattern> pattern = std::nullopt);

}  // namespace mheta::search
