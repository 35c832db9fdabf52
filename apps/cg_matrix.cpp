#include "apps/cg_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "apps/deterministic_hash.hpp"

namespace mheta::apps {

CgMatrix::CgMatrix(std::int64_t rows, std::int64_t max_band)
    : rows_(rows), max_band_(std::max<std::int64_t>(max_band, 1)) {}

std::int64_t CgMatrix::band(std::int64_t i) const {
  const double t = static_cast<double>(i) / static_cast<double>(std::max<std::int64_t>(rows_ - 1, 1));
  return 1 + static_cast<std::int64_t>(static_cast<double>(max_band_ - 1) * t * t);
}

std::vector<SparseEntry> CgMatrix::row(std::int64_t i) const {
  std::vector<SparseEntry> entries;
  const std::int64_t b = band(i);
  double off_diagonal_sum = 0;
  for (std::int64_t j = std::max<std::int64_t>(0, i - b); j <= std::min(rows_ - 1, i + b); ++j) {
    if (j == i) {
      entries.push_back({i, 0.0});
      continue;
    }
    const std::int64_t d = j > i ? j - i : i - j;
    if (d > std::min(b, band(j))) continue;
    const double value =
        -(0.5 + unit_value(static_cast<std::uint64_t>(std::min(i, j)), static_cast<std::uint64_t>(std::max(i, j))));
    entries.push_back({j, value});
    off_diagonal_sum += std::fabs(value);
  }
  for (SparseEntry& e : entries) {
    if (e.col == i) e.value = off_diagonal_sum + 1.0;
  }
  return entries;
}

std::int64_t CgMatrix::row_nonzeros(std::int64_t i) const { return static_cast<std::int64_t>(row(i).size()); }

void CgMatrix::encode_row(std::int64_t i, std::span<std::byte> out) const {
  const std::vector<SparseEntry> entries = row(i);
  std::vector<std::int64_t> cols(static_cast<std::size_t>(width()), 0);
  std::vector<double> values(static_cast<std::size_t>(width()), 0.0);
  for (std::size_t k = 0; k < entries.size(); ++k) {
    cols[k] = entries[k].col;
    values[k] = entries[k].value;
  }
  const std::int64_t count = static_cast<std::int64_t>(entries.size());
  std::memcpy(out.data(), &count, 8);
  std::memcpy(out.data() + 8, cols.data(), cols.size() * 8);
  std::memcpy(out.data() + 8 + cols.size() * 8, values.data(), values.size() * 8);
}

void ellpack_multiply(std::span<const std::byte> rows, std::int64_t count, std::int64_t width, const double* x,
                      double* y) {
  const std::size_t bytes_per_row = static_cast<std::size_t>(8 + 16 * width);
  for (std::int64_t r = 0; r < count; ++r) {
    const std::byte* row = rows.data() + static_cast<std::size_t>(r) * bytes_per_row;
    std::int64_t nonzeros = 0;
    std::memcpy(&nonzeros, row, 8);
    const auto* cols = reinterpret_cast<const std::int64_t*>(row + 8);
    const auto* values = reinterpret_cast<const double*>(row + 8 + 8 * width);
    double sum = 0;
    for (std::int64_t k = 0; k < nonzeros; ++k) sum += values[k] * x[cols[k]];
    y[r] = sum;
  }
}

}  // namespace mheta::apps
