#include "model/redistribution_plan.hpp"

#include <algorithm>
#include <stdexcept>

namespace mheta::model {

std::vector<RowTransfer> plan_transfers(const GenBlock& from, const GenBlock& to) {
  if (from.ranks() != to.ranks() || from.total_rows() != to.total_rows()) {
    throw std::invalid_argument("redistribution between distributions of different ranks or rows");
  }
  // Walk both block boundaries together: each piece between consecutive
  // boundaries has one owner under δ and one under δ'.
  std::vector<RowTransfer> transfers;
  int a = 0;
  int b = 0;
  std::int64_t a_end = 0;
  std::int64_t b_end = 0;
  std::int64_t row = 0;
  const std::int64_t total = from.total_rows();
  while (row < total) {
    while (a_end <= row) a_end += from.rows[static_cast<std::size_t>(a++)];
    while (b_end <= row) b_end += to.rows[static_cast<std::size_t>(b++)];
    const std::int64_t end = std::min(a_end, b_end);
    const int owner = a - 1;
    const int new_owner = b - 1;
    if (owner != new_owner) {
      if (!transfers.empty() && transfers.back().from == owner && transfers.back().to == new_owner &&
          transfers.back().first_row + transfers.back().rows == row) {
        transfers.back().rows += end - row;
      } else {
        transfers.push_back(RowTransfer{owner, new_owner, row, end - row});
      }
    }
    row = end;
  }
  return transfers;
}

}  // namespace mheta::model
