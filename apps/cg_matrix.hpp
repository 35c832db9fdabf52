#pragma once
// cg's sparse SPD matrix, generated row by row from global indices.
//
// Row i couples to j when 0 < |i-j| <= min(band(i), band(j)), with band
// growing quadratically along the rows: late rows hold many more nonzeros
// than early ones, so equal rows are not equal work (the MHETA paper's
// limitation 3; row_nonzeros() gives the per-row weights). Off-diagonal
// values are symmetric functions of (i, j); the diagonal exceeds the row's
// absolute sum by one, so the matrix is symmetric positive definite.
//
// Stored ELLPACK, so that every row has the same bytes: a 64-bit count, then
// `width` 64-bit column indices and `width` doubles, padded.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace mheta::apps {

struct SparseEntry {
  std::int64_t col;
  double value;
};

class CgMatrix {
 public:
  CgMatrix(std::int64_t rows, std::int64_t max_band);

  std::int64_t rows() const { return rows_; }
  std::int64_t width() const { return 2 * max_band_ + 1; }  // most nonzeros of any row
  std::int64_t bytes_per_row() const { return 8 + 16 * width(); }
  std::int64_t band(std::int64_t i) const;
  // Nonzeros of row i, diagonal included: the row's work.
  std::int64_t row_nonzeros(std::int64_t i) const;
  // Row i's entries in column order.
  std::vector<SparseEntry> row(std::int64_t i) const;
  // Row i in the ELLPACK layout.
  void encode_row(std::int64_t i, std::span<std::byte> out) const;

 private:
  std::int64_t rows_;
  std::int64_t max_band_;
};

// y = (ELLPACK rows) * x for `count` rows starting at `rows`.
void ellpack_multiply(std::span<const std::byte> rows, std::int64_t count, std::int64_t width, const double* x,
                      double* y);

}  // namespace mheta::apps
