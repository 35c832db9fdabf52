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

std::array<double, kCurveTermCount> CollectiveCurve::basis(int ranks, double bytes) {
  const double p = std::max(ranks, 1);
  const double log2p = std::log2(p);
  return {1, log2p, p, bytes, bytes * log2p, bytes * p};
}

std::array<double*, kCurveTermCount> CollectiveCurve::coefficients() {
  return {&c0, &c_log2p, &c_p, &c_bytes, &c_bytes_log2p, &c_bytes_p};
}

std::array<double, kCurveTermCount> CollectiveCurve::coefficient_values() const {
  return {c0, c_log2p, c_p, c_bytes, c_bytes_log2p, c_bytes_p};
}

double CollectiveCurve::seconds(int ranks, double bytes) const {
  const std::array<double, kCurveTermCount> terms = basis(ranks, bytes);
  const std::array<double, kCurveTermCount> c = coefficient_values();
  double t = 0;
  for (int k = 0; k < kCurveTermCount; ++k) t += c[static_cast<std::size_t>(k)] * terms[static_cast<std::size_t>(k)];
  return std::max(0.0, t);
}

void sort_by_size(std::vector<CollectivePoint>& points) {
  std::sort(points.begin(), points.end(),
            [](const CollectivePoint& a, const CollectivePoint& b) { return a.size() < b.size(); });
}

}  // namespace mheta::model
