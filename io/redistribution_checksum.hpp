#pragma once
// Checksums of row ranges for the redistribution's verification: a hash of
// each row's global index and bytes, summed modulo 2^64. Summing makes the
// checksum of a range the sum of its pieces' and the checksum of the whole
// array independent of the distribution, so "the data before equals the
// data after" is one number compared, whatever moved where.
#include <cstddef>
#include <cstdint>

namespace mheta::io {

// XXH3 (libxxhash) of one row's bytes seeded with its global index: the row
// checksum of the redistribution and of the apps' results.
std::uint64_t row_checksum(std::int64_t global_row, const std::byte* row, std::int64_t bytes);

// Rows [first_global_row, first_global_row + rows) held contiguously at
// `data`, `bytes_per_row` bytes each.
std::uint64_t rows_checksum(std::int64_t first_global_row, std::int64_t rows, std::int64_t bytes_per_row,
                            const std::byte* data);

}  // namespace mheta::io
