#pragma once
// Collective operations the model prices, and their cost curves.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace mheta::model {

enum class Collective {
  barrier,
  bcast,
  reduce,
  allreduce,
  gather,
  allgather,  // and allgatherv
  scatter,
  alltoall,
  reduce_scatter,
  scan,
};
inline constexpr int kCollectiveCount = 10;

std::string_view collective_name(Collective op);
std::optional<Collective> collective_from_name(std::string_view name);

// A collective's cost as a linear function of a few terms of the rank count
// P and the bytes n each rank contributes or receives, fitted by least
// squares in microbench:
//   t(P, n) = c0 + c_log2p*log2(P) + c_p*P + c_bytes*n + c_bytes_log2p*n*log2(P)
//             + c_bytes_p*n*P
// Tree and recursive-doubling algorithms load the log2 terms; ring
// algorithms the P and n*P terms (each rank passes on the P-1 blocks of the
// others: an allgather of n bytes per rank moves (P-1)*n bytes through every
// link, which no combination of n and n*log2(P) follows across P).
inline constexpr int kCurveTermCount = 6;
inline constexpr std::array<const char*, kCurveTermCount> kCurveTermNames = {
    "c0", "c_log2p", "c_p", "c_bytes", "c_bytes_log2p", "c_bytes_p"};

struct CollectiveCurve {
  double c0 = 0;
  double c_log2p = 0;
  double c_p = 0;
  double c_bytes = 0;
  double c_bytes_log2p = 0;
  double c_bytes_p = 0;

  double seconds(int ranks, double bytes) const;
  // The terms the coefficients multiply at (P, n), in kCurveTermNames' order.
  static std::array<double, kCurveTermCount> basis(int ranks, double bytes);
  // The coefficients, in the same order.
  std::array<double*, kCurveTermCount> coefficients();
  std::array<double, kCurveTermCount> coefficient_values() const;
};

// A collective timed at one rank count and byte count, the sizes a program
// uses (`mheta microbench --profile`): the cost there, whatever the curve
// says. A library switches algorithms at thresholds of its own, and one
// size can cost many times its neighbours (docs/model.md, "Collectives
// measured at the program's sizes").
struct CollectivePoint {
  int ranks = 0;
  std::int64_t bytes = 0;
  double seconds = 0;

  // What a point is kept sorted and found by: one point per (ranks, bytes).
  std::pair<int, std::int64_t> size() const { return {ranks, bytes}; }
};

// Sorts `points` by size (ranks, then bytes), so that they can be searched.
void sort_by_size(std::vector<CollectivePoint>& points);

}  // namespace mheta::model
