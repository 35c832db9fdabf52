#pragma once
// Prophet's load-balanced data domain decomposition (Weissman's
// dissertation §4.1.1) for per-processor costs linear in the rows owned:
//   T_comp[p_i] = x_i + y_i * A_i                                  (Eq 4.2)
// Load balance (Eq 4.3) with sum A_i = N gives, correcting the garbled
// Eq 4.4 / 4.5 of the text,
//   T* = (N + sum_k x_k / y_k) / sum_k (1 / y_k),   A_i = (T* - x_i) / y_i,
// which with x_i = 0 is A_i = N * (1/y_i) / sum_k (1/y_k).
#include <cstdint>
#include <span>
#include <vector>

namespace mheta::search {

struct LinearCost {
  double x = 0;  // PDU (row) independent seconds per iteration
  double y = 0;  // seconds per row
};

// Real shares of `rows` over the selected processors (selected[i] != 0);
// 0 for the others. A processor whose share is <= 0 (its fixed cost alone
// exceeds T*) is dropped and the rest recomputed, as the dissertation's
// processor selection would never choose it.
std::vector<double> balanced_shares(std::span<const LinearCost> costs, std::span<const char> selected,
                                    double rows);

// Prophet's integer partition map: each share rounded to the nearest
// integer, the rows left over given to the fastest processors (smallest
// y), at most one each. Rounding can also overshoot (every share just above
// one half); then the slowest give one row back each, which the
// dissertation leaves unsaid.
std::vector<std::int64_t> round_partition(std::span<const double> shares, std::span<const LinearCost> costs,
                                          std::int64_t rows);

}  // namespace mheta::search
