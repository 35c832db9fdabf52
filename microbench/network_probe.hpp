#pragma once
// Point-to-point costs: ping-pong alpha and beta for every pair of ranks
// (t_one_way = alpha + beta*bytes, fitted over a size sweep, MHETA §4.2.2's
// T_{i->j}), the median one-way time at each size of the sweep (the link's
// curve, which the model prefers), the send and receive overheads O->
// and O<- of a small message, and what a message's contiguous blocks cost
// beyond its bytes (a vector of single doubles against the same doubles in
// one block). One pair at a time; the other ranks wait
// without spinning.
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
  // The median one-way time at each of NetworkResult::sizes: the link's
  // curve (the line above is fitted to these).
  std::vector<double> medians{};
};

struct NetworkResult {
  // On rank 0 only.
  std::vector<PairCost> pairs;  // i < j; the link is taken as symmetric
  Sample send_overhead;
  Sample recv_overhead;
  // A non-contiguous message's cost beyond its bytes, per block of its data
  // (one value a batch of every pair's lower rank).
  Sample segment;
  std::vector<std::int64_t> sizes;
  int rounds = 0;
};

// 8 bytes, then x4 up to options.max_message_bytes: a point in every
// protocol regime (MPICH's shared-memory cells, its eager and rendezvous
// sizes) with the curve's segments short enough to follow their changes.
std::vector<std::int64_t> message_sizes(const Options& options);
NetworkResult probe_network(const Options& options, Budget& budget, MPI_Comm comm);

}  // namespace mheta::microbench
