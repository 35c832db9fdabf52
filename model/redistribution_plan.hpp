#pragma once
// Which rows move where when a GEN_BLOCK distribution changes from δ to δ'.
// Pure arithmetic on the two distributions; io/ moves the data, the model
// prices it.
#include <cstdint>
#include <vector>

#include "model/gen_block.hpp"

namespace mheta::model {

struct RowTransfer {
  int from = 0;                // rank that owns the rows under δ
  int to = 0;                  // rank that owns them under δ'
  std::int64_t first_row = 0;  // global row
  std::int64_t rows = 0;
};

// Every maximal run of global rows whose owner changes, in row order (so
// each rank's sends and receives are in increasing row order). Rows a rank
// owns under both distributions are not listed: it keeps them.
// Both distributions must have the same ranks and rows.
std::vector<RowTransfer> plan_transfers(const GenBlock& from, const GenBlock& to);

}  // namespace mheta::model
