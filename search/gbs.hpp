#pragma once
// GBS, generalized binary search (DESIGN.md, Search).
//
// 1. Seeds: the canonical distributions and Prophet (H1).
// 2. Under the per-rank model (rank_busy_seconds: compute, I/O and message
//    overheads, non-decreasing in the rows owned), binary-search the
//    smallest finish time T at which the rows every rank can finish within
//    T (itself a binary search per rank, ranks taking rows in rank order)
//    cover the data. Ranks whose fixed costs alone exceed T take none.
// 3. From the best of the seeds and step 2, refine under the full coupled
//    model (waits included): move rows from the rank that finishes last, or
//    is busiest, to the least busy ranks and its neighbours (every pair of
//    ranks when they are few), keeping a move when the predicted time
//    drops. When none helps, jumps: a move that puts the donor or the
//    receiver exactly at its in-core limit, swapping two ranks' rows,
//    dropping a rank. When those fail too, the move size halves, until one
//    row moves nothing.
#include <string>

#include "search/method.hpp"
#include "search/objective.hpp"

namespace mheta::search {

std::string generalized_binary_search(Objective& objective, const SearchContext& context);

// Step 2 alone: the distribution of the smallest common finish time under
// the per-rank model, and that time. For tests and for seeding.
struct CommonFinish {
  std::vector<std::int64_t> rows;
  double finish_s = 0;
};
CommonFinish common_finish_time(const model::Model& model, const RowBounds& bounds);

}  // namespace mheta::search
