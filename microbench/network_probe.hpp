#pragma once
// Point-to-point costs: ping-pong alpha and beta for every pair of ranks
// (t_one_way = alpha + beta*bytes, fitted over a size sweep, MHETA §4.2.2's
// T_{i->j}), and the send and receive overheads O-> and O<- of a small
// message. One pair at a time; the other ranks wait without spinning.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "microbench/budget.hpp"
#include "microbench/linear_cost.hpp"
#include "microbench/options.hpp"
#include "microbench/statistics.hpp"

namespace mheta::microbench {

struct PairCost {
  int from = 0;
  int to = 0;
  LinearCost cost;  // overhead_s = alpha, s_per_byte = beta
};

struct NetworkResult {
  // On rank 0 only.
  std::vector<PairCost> pairs;  // i < j; the link is taken as symmetric
  Sample send_overhead;
  Sample recv_overhead;
  std::vector<std::int64_t> sizes;
  int rounds = 0;
};

std::vector<std::int64_t> message_sizes(const Options& options);
NetworkResult probe_network(const Options& options, Budget& budget, MPI_Comm comm);

}  // namespace mheta::microbench
