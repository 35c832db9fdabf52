#pragma once
// Collective operations the model prices, and their cost curves.
#include <array>
#include <optional>
#include <string_view>

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
// Tree algorithms load the log2 terms, ring algorithms the P and n terms.
struct CollectiveCurve {
  double c0 = 0;
  double c_log2p = 0;
  double c_p = 0;
  double c_bytes = 0;
  double c_bytes_log2p = 0;

  double seconds(int ranks, double bytes) const;
};

}  // namespace mheta::model
