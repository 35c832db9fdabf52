#include "model/icla_policy.hpp"

#include <algorithm>
#include <cassert>

namespace mheta::model {

namespace {

// Rows per ICLA, the same for every variable: as many rows of all of them
// (`bytes_per_icla_row` bytes) as fit in the budget, per buffer, at least one.
std::int64_t icla_rows_within(std::uint64_t budget_bytes, std::uint64_t bytes_per_icla_row, IclaOptions options) {
  const std::uint64_t per_row = bytes_per_icla_row * static_cast<std::uint64_t>(std::max(options.buffers, 1));
  return per_row == 0 ? 1
                      : std::max<std::int64_t>(1, static_cast<std::int64_t>(
                                                      std::min<std::uint64_t>(budget_bytes / per_row, INT64_MAX)));
}

IclaPlan plan_variable(std::int64_t rows, bool all_in_core, std::int64_t icla_rows) {
  rows = std::max<std::int64_t>(rows, 0);
  if (all_in_core || rows == 0) return IclaPlan{true, rows, 0};
  const std::int64_t rows_per_icla = std::min(rows, icla_rows);
  return IclaPlan{false, rows_per_icla, (rows + rows_per_icla - 1) / rows_per_icla};
}

}  // namespace

IclaPlan plan_equal_rows(std::uint64_t budget_bytes, std::uint64_t bytes_per_row, std::int64_t rows,
                         IclaOptions options) {
  if (rows <= 0) return IclaPlan{true, std::max<std::int64_t>(rows, 0), 0};
  // In 128 bits, as plan_iclas sums.
  const unsigned __int128 total_bytes = static_cast<unsigned __int128>(rows) * bytes_per_row;
  const bool all_in_core = !options.force_out_of_core && total_bytes <= budget_bytes;
  return plan_variable(rows, all_in_core, icla_rows_within(budget_bytes, bytes_per_row, options));
}

void plan_iclas(std::uint64_t budget_bytes, std::span<const VariableDemand> demands,
                IclaOptions options, std::span<IclaPlan> plans) {
  assert(plans.size() == demands.size());
  // Sums in unsigned 128 bits: rows * bytes_per_row of a large array can
  // overflow 64 bits before the comparison with the budget.
  unsigned __int128 total_bytes = 0;
  std::uint64_t bytes_per_icla_row = 0;
  for (const VariableDemand& d : demands) {
    if (d.rows <= 0) continue;
    total_bytes += static_cast<unsigned __int128>(d.rows) * static_cast<std::uint64_t>(d.bytes_per_row);
    bytes_per_icla_row += static_cast<std::uint64_t>(d.bytes_per_row);
  }
  const bool all_in_core = !options.force_out_of_core && total_bytes <= budget_bytes;
  const std::int64_t icla_rows = icla_rows_within(budget_bytes, bytes_per_icla_row, options);
  for (std::size_t i = 0; i < demands.size(); ++i) plans[i] = plan_variable(demands[i].rows, all_in_core, icla_rows);
}

}  // namespace mheta::model
