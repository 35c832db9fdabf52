#pragma once
// An exact checksum of a row-distributed array: each row's hash seeded with
// its global index (io::row_checksum, XXH3), summed modulo 2^64, so that
// ranks can add their rows' sums in any order and the total equals the
// serial reference's only when every bit of every row does.
#include <cstddef>
#include <cstdint>
#include <span>

#include "io/redistribution_checksum.hpp"

namespace mheta::apps {

inline std::uint64_t row_checksum(std::int64_t global_row, std::span<const std::byte> row) {
  return io::row_checksum(global_row, row.data(), static_cast<std::int64_t>(row.size()));
}

}  // namespace mheta::apps
