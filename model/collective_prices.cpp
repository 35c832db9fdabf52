#include "model/collective_prices.hpp"

#include <algorithm>
#include <cstdio>

namespace mheta::model {

namespace {

// "2.1 ms", "10 us".
std::string duration(double seconds) {
  char text[32];
  if (seconds >= 1e-3) {
    std::snprintf(text, sizeof text, "%.3g ms", seconds * 1e3);
  } else {
    std::snprintf(text, sizeof text, "%.3g us", seconds * 1e6);
  }
  return text;
}

}  // namespace

bool ends_together(Collective op) {
  switch (op) {
    case Collective::barrier:
    case Collective::allreduce:
    case Collective::allgather:
    case Collective::alltoall:
    case Collective::reduce_scatter:
      return true;
    default:
      return false;
  }
}

std::vector<CollectivePrice> dearer_than_priced(const std::vector<CollectivePrice>& prices) {
  std::vector<CollectivePrice> dearer;
  for (const CollectivePrice& c : prices) {
    if (c.by_capture || !c.inside_s || *c.inside_s <= kDearerFactor * c.cluster_s) continue;
    dearer.push_back(c);
  }
  std::stable_sort(dearer.begin(), dearer.end(), [](const CollectivePrice& a, const CollectivePrice& b) {
    return *a.inside_s - a.cluster_s > *b.inside_s - b.cluster_s;
  });
  return dearer;
}

std::string collective_price_warning(const std::vector<CollectivePrice>& prices, int ranks, double iteration_s) {
  const std::vector<CollectivePrice> dearer = dearer_than_priced(prices);
  double excess = 0;
  for (const CollectivePrice& c : dearer) excess += *c.inside_s - c.cluster_s;
  if (dearer.empty() || !(excess >= kWorthSaying * iteration_s)) return "";
  const CollectivePrice& first = dearer.front();
  char share[32];
  std::snprintf(share, sizeof share, "%.0f%%", 100 * excess / iteration_s);
  std::string text = "collective #" + std::to_string(first.call + 1) + " of the iteration (" +
                     std::string(collective_name(first.op)) + " of " + std::to_string(first.bytes) + " bytes over " +
                     std::to_string(ranks) + " ranks) took " + duration(*first.inside_s) +
                     " inside the program when captured (its fastest rank), but the cluster prices it at " +
                     duration(first.cluster_s);
  if (dearer.size() > 1) text += " (and " + std::to_string(dearer.size() - 1) + " more like it)";
  text += ": if the cluster is the one it was captured on, the prediction may be low by up to " + duration(excess) +
          " an iteration (" + share +
          "). The program's own process can make a collective dearer than alone (an allocator that maps a "
          "temporary buffer afresh every call, a datatype or operation of its own), which a measurement of the "
          "cluster cannot see";
  return text;
}

}  // namespace mheta::model
