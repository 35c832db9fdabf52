#pragma once
// An exact checksum of a row-distributed array: FNV-1a of each row's global
// index and bytes, summed modulo 2^64, so that ranks can add their rows'
// sums in any order and the total equals the serial reference's only when
// every bit of every row does.
#include <cstddef>
#include <cstdint>
#include <span>

namespace mheta::apps {

inline std::uint64_t row_checksum(std::int64_t global_row, std::span<const std::byte> row) {
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](std::byte b) {
    h ^= static_cast<std::uint64_t>(b);
    h *= 1099511628211ull;
  };
  for (int i = 0; i < 8; ++i) mix(static_cast<std::byte>((static_cast<std::uint64_t>(global_row) >> (8 * i)) & 0xff));
  for (std::byte b : row) mix(b);
  return h;
}

}  // namespace mheta::apps
