#include "io/redistribution_checksum.hpp"

#include <xxhash.h>

namespace mheta::io {

// XXH3 rather than a hand-written hash: verification hashes every moved
// byte twice (read from the old block, read back from the new one), and
// the hash must not be what limits the throughput.
std::uint64_t row_checksum(std::int64_t global_row, const std::byte* row, std::int64_t bytes) {
  return XXH3_64bits_withSeed(row, static_cast<std::size_t>(bytes), static_cast<XXH64_hash_t>(global_row));
}

std::uint64_t rows_checksum(std::int64_t first_global_row, std::int64_t rows, std::int64_t bytes_per_row,
                            const std::byte* data) {
  std::uint64_t sum = 0;
  for (std::int64_t r = 0; r < rows; ++r)
    sum += row_checksum(first_global_row + r, data + r * bytes_per_row, bytes_per_row);
  return sum;
}

}  // namespace mheta::io
