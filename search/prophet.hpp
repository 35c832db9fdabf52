#pragma once
// The Prophet partitioner (Weissman's dissertation §4.1) on the MHETA model:
// per-rank linear costs x_i + y_i*A_i, ranks grouped into clusters of
// identical nodes, clusters ordered by their best single-cluster time, and
// heuristic H1 or H2 choosing how many processors of each cluster to use.
// Every candidate is timed with the MHETA model (waits, I/O, messages), not
// with Prophet's own T_c.
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/model.hpp"
#include "search/objective.hpp"
#include "search/prophet_decomposition.hpp"

namespace mheta::search {

// x_i and y_i of every rank, as the secant of its busy time (compute, I/O,
// message overheads; rank_busy_seconds) between rows/2 and rows: y_i is the
// compute per row plus the I/O per row when `rows` is out of core, x_i the
// fixed per-iteration costs. Ranks that may own no rows get y = 0, and so
// do the ranks `selected` leaves out when given (a decomposition over the
// selected ranks reads only theirs).
std::vector<LinearCost> linear_costs(const model::Model& model, std::span<const std::int64_t> rows,
                                     const RowBounds& bounds, std::span<const char> selected = {});

// Ranks of identical nodes: equal node parameters in cluster.json and equal
// per-row costs y_i within a relative `tolerance`. Clusters in order of their
// lowest rank; ranks ascending within each. Ranks that cannot own rows
// belong to no cluster.
std::vector<std::vector<int>> identical_node_clusters(const model::Cluster& cluster,
                                                      std::span<const LinearCost> costs, const RowBounds& bounds,
                                                      double tolerance = 1e-3);

enum class Heuristic { h1, h2 };

// Runs the partitioner; the best distribution is in `objective`. Returns the
// processor counts chosen per cluster, for display.
std::string prophet_partition(Objective& objective, const model::Cluster& cluster, Heuristic heuristic);

}  // namespace mheta::search
