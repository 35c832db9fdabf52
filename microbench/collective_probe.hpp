#pragma once
// Cost curves of the collectives the model prices (model/collective.hpp):
// each operation is timed on sub-communicators of the first p ranks
// (p = 2, 3, the powers of two and P), over a sweep of byte counts, and
//   t(p, n) = c0 + c_log2p*log2 p + c_p*p + c_bytes*n + c_bytes_log2p*n*log2 p
//       + c_bytes_p*n*p
// is fitted by weighted least squares. n is the bytes each rank contributes:
// the buffer of bcast and allreduce, the send block of allgather(v), the
// block sent to each peer by alltoall, the block each rank receives of
// reduce_scatter.
#include <mpi.h>

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "microbench/budget.hpp"
#include "microbench/options.hpp"
#include "microbench/statistics.hpp"
#include "model/collective.hpp"

namespace mheta::microbench {

struct CurveFit {
  model::CollectiveCurve curve;
  // Per coefficient (model::kCurveTermNames' order): fitted or held at 0
  // because the sweep cannot tell it apart (too few rank counts, or one
  // byte count), and the half-width of its interval when fitted.
  std::array<bool, model::kCurveTermCount> fitted{};
  std::array<double, model::kCurveTermCount> ci95{};
};

// A collective timed at a program's own sizes (--profile).
struct ProgramPoint {
  model::Collective op;
  const char* mpi_name;
  int ranks;
  std::int64_t bytes;
  Sample time;
};

struct CollectiveResult {
  // On rank 0 only, indexed by model::Collective.
  std::array<std::optional<CurveFit>, model::kCollectiveCount> curves;
  std::vector<std::int64_t> sizes;
  std::vector<int> rank_counts;
  std::vector<const char*> operations;  // the MPI calls timed
  int points = 0;
  int rounds = 0;
  std::vector<ProgramPoint> program_points;  // on rank 0 only
  // A program's collectives not timed: more ranks than this run has, or
  // blocks too large for the buffers.
  std::vector<Options::ProgramCollective> program_skipped;
};

CollectiveResult probe_collectives(const Options& options, Budget& budget, MPI_Comm comm);

}  // namespace mheta::microbench
