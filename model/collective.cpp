#include "model/collective.hpp"

#include <algorithm>
#include <cmath>

namespace mheta::model {

namespace {
constexpr std::array<std::string_view, kCollectiveCount> kNames = {
    "barrier", "bcast", "reduce", "allreduce", "gather",
    "allgather", "scatter", "alltoall", "reduce_scatter", "scan"};
}  // namespace

std::string_view collective_name(Collective op) { return kNames[static_cast<std::size_t>(op)]; }

std::optional<Collective> collective_from_name(std::string_view name) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<Collective>(i);
  }
  return std::nullopt;
}

double CollectiveCurve::seconds(int ranks, double bytes) const {
  const double p = std::max(ranks, 1);
  const double log2p = std::log2(p);
  return std::max(0.0, c0 + c_log2p * log2p + c_p * p + c_bytes * bytes + c_bytes_log2p * bytes * log2p);
}

}  // namespace mheta::model
