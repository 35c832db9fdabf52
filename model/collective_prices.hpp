#pragma once
// What the cluster prices each collective of a profile's iteration at,
// against what it cost the program when captured on the wall clock. A
// collective can cost a program more than the same call alone: the
// program's process (a temporary buffer its allocator maps afresh every
// call), its datatype or reduction operation, or a size where the library
// switches algorithm. Only the capture sees that. The model prices a
// collective by its capture where it can (docs/model.md, "Collectives as
// the program paid for them"); for the others `mheta predict` warns when
// the capture saw them much dearer, by a share of the iteration worth
// saying.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/collective.hpp"

namespace mheta::model {

struct CollectivePrice {
  int call = 0;  // the k-th collective of the iteration
  Collective op = Collective::barrier;
  std::int64_t bytes = 0;
  double cluster_s = 0;             // the cluster's price: a point measured at its size, else the curve
  std::optional<double> inside_s;   // what it cost the program (IterationCollective::inside_s)
  bool by_capture = false;          // the model prices it at inside_s, not at cluster_s
};

// Whether the smallest time inside over the ranks is the collective's cost
// from its last arrival: so for the collectives whose every rank ends with
// the result of all (barrier, allreduce, allgather, alltoall,
// reduce_scatter). A rooted one's leaves (bcast's root, reduce's and
// gather's senders, scatter's root) and a scan's first rank may return
// before the others are served: their smallest time inside is less.
bool ends_together(Collective op);

// Those not priced by their capture that cost the program more than
// kDearerFactor times the cluster's price, the dearest excess first.
inline constexpr double kDearerFactor = 2;
std::vector<CollectivePrice> dearer_than_priced(const std::vector<CollectivePrice>& prices);

// Empty, or a warning naming the dearest such collective and what the
// excesses add to an iteration, when they add at least kWorthSaying of
// `iteration_s` (the predicted iteration); `ranks`: the profile's.
inline constexpr double kWorthSaying = 0.05;
std::string collective_price_warning(const std::vector<CollectivePrice>& prices, int ranks, double iteration_s);

}  // namespace mheta::model
