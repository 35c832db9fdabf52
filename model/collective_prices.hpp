#pragma once
// What the cluster prices each collective of a profile's iteration at,
// against what it cost the program when captured on the wall clock. A
// collective can cost a program more than the same call alone: the
// program's process (a temporary buffer its allocator maps afresh every
// call), its datatype or reduction operation, or a size where the library
// switches algorithm. Only the capture sees that; `mheta predict` warns when
// it is a share of the iteration worth saying (docs/model.md, "Collectives
// as the program paid for them").
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/profile.hpp"

namespace mheta::model {

struct CollectivePrice {
  int call = 0;  // the k-th collective of the iteration
  Collective op = Collective::barrier;
  std::int64_t bytes = 0;
  double priced_s = 0;  // the cluster's price: a point measured at its size, else the curve
  double inside_s = 0;  // what it cost the program (IterationCollective::inside_s)
};

// The collectives that cost the program more than kDearerFactor times the
// cluster's price, the dearest excess first. Empty when the capture timed
// none (a virtual clock's) or the ranks disagree on the order.
inline constexpr double kDearerFactor = 2;
std::vector<CollectivePrice> dearer_than_priced(const Profile& profile, const Cluster& cluster);

// Empty, or a warning naming the dearest such collective and what the
// excesses add to an iteration, when they add at least kWorthSaying of
// `iteration_s` (the predicted iteration).
inline constexpr double kWorthSaying = 0.05;
std::string collective_price_warning(const Profile& profile, const Cluster& cluster, double iteration_s);

}  // namespace mheta::model
