#include "io/redistribution_checksum.hpp"

#include <bit>
#include <cstring>

namespace mheta::io {

namespace {

constexpr std::uint64_t kPrime = 0x9E3779B97F4A7C15ull;

// Four independent lanes of eight bytes per step rather than FNV's one
// byte: verification hashes every moved byte twice (when it is read from
// the old block and when it is read back from the new one), and the hash
// must not be what limits the throughput.
std::uint64_t row_hash(std::int64_t global_row, const std::byte* row, std::int64_t bytes) {
  const std::uint64_t seed = (static_cast<std::uint64_t>(global_row) + 1) * kPrime;
  std::uint64_t lane[4] = {seed, seed ^ 0x1, seed ^ 0x2, seed ^ 0x3};
  std::int64_t i = 0;
  for (; i + 32 <= bytes; i += 32) {
    std::uint64_t words[4];
    std::memcpy(words, row + i, 32);
    for (int k = 0; k < 4; ++k) lane[k] = std::rotl(lane[k] ^ words[k], 29) * kPrime;
  }
  std::uint64_t h = lane[0] ^ std::rotl(lane[1], 16) ^ std::rotl(lane[2], 32) ^ std::rotl(lane[3], 48);
  for (; i + 8 <= bytes; i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, row + i, 8);
    h = std::rotl(h ^ word, 29) * kPrime;
  }
  for (; i < bytes; ++i) h = std::rotl(h ^ static_cast<std::uint64_t>(row[i]), 29) * kPrime;
  // Final mix, so that rows differing only in their last word still differ
  // in every bit of the sum.
  h ^= h >> 32;
  h *= kPrime;
  return h ^ (h >> 29);
}

}  // namespace

std::uint64_t rows_checksum(std::int64_t first_global_row, std::int64_t rows, std::int64_t bytes_per_row,
                            const std::byte* data) {
  std::uint64_t sum = 0;
  for (std::int64_t r = 0; r < rows; ++r)
    sum += row_hash(first_global_row + r, data + r * bytes_per_row, bytes_per_row);
  return sum;
}

}  // namespace mheta::io
