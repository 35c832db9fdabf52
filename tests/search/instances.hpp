#pragma once
// Small hand-made instances for the search tests.
#include <vector>

#include "search/synthetic_instance.hpp"

namespace mheta::search::testing {

// Ranks that only compute (no I/O cost, no messages), with the given
// seconds per row; memory for everything.
inline Instance compute_only(const std::vector<double>& seconds_per_row, std::int64_t rows,
                             Pattern pattern = Pattern::none) {
  SyntheticProgram program;
  program.rows = rows;
  program.variables = {SyntheticVariable{1024, false}};
  program.pattern = pattern;
  program.message_bytes = 4096;
  std::vector<SyntheticNode> nodes;
  for (double s : seconds_per_row) {
    SyntheticNode n;
    n.compute_s_per_row = s;
    n.memory_bytes = static_cast<std::uint64_t>(rows) * 1024;
    nodes.push_back(n);
  }
  return synthetic_instance(program, nodes, SyntheticNetwork{1e-6, 1e-6, 1e-5, 1e-9, 1e-5, 1e-5});
}

// Equal CPUs; memory for `in_core_rows[i]` rows on rank i, and a slow disk
// beyond (1 KiB rows read at 1 us per byte: about 1 ms a row).
inline Instance memory_limited(const std::vector<std::int64_t>& in_core_rows, std::int64_t rows,
                               double seconds_per_row = 1e-4) {
  SyntheticProgram program;
  program.rows = rows;
  program.variables = {SyntheticVariable{1024, true}};
  std::vector<SyntheticNode> nodes;
  for (std::int64_t r : in_core_rows) {
    SyntheticNode n;
    n.compute_s_per_row = seconds_per_row;
    n.memory_bytes = static_cast<std::uint64_t>(r) * 1024;
    n.read_overhead_s = 1e-3;
    n.write_overhead_s = 1e-3;
    n.read_s_per_byte = 1e-6;
    n.write_s_per_byte = 1e-6;
    nodes.push_back(n);
  }
  return synthetic_instance(program, nodes, SyntheticNetwork{});
}

}  // namespace mheta::search::testing
