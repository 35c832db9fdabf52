#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "io/redistribution_checksum.hpp"

namespace mheta::io {
namespace {

std::vector<std::byte> rows(std::int64_t count, std::int64_t bytes_per_row) {
  std::vector<std::byte> data(static_cast<std::size_t>(count * bytes_per_row));
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::byte>((i * 2654435761u) >> 7);
  return data;
}

TEST(RowsChecksum, OfARangeIsTheSumOfItsPieces) {
  const std::int64_t bpr = 13;  // not a multiple of eight: the tail bytes count too
  const auto data = rows(10, bpr);
  const std::uint64_t whole = rows_checksum(100, 10, bpr, data.data());
  const std::uint64_t parts =
      rows_checksum(100, 3, bpr, data.data()) + rows_checksum(103, 7, bpr, data.data() + 3 * bpr);
  EXPECT_EQ(whole, parts);
}

TEST(RowsChecksum, ChangesWithAnyBitOfAnyRow) {
  const std::int64_t bpr = 13;
  auto data = rows(10, bpr);
  const std::uint64_t before = rows_checksum(0, 10, bpr, data.data());
  for (std::size_t byte : {std::size_t{0}, std::size_t{7}, std::size_t{12}, std::size_t{129}}) {
    data[byte] ^= std::byte{0x10};
    EXPECT_NE(rows_checksum(0, 10, bpr, data.data()), before) << "byte " << byte;
    data[byte] ^= std::byte{0x10};
  }
}

TEST(RowsChecksum, DependsOnWhereTheRowsAre) {
  const auto data = rows(4, 16);
  EXPECT_NE(rows_checksum(0, 4, 16, data.data()), rows_checksum(1, 4, 16, data.data()));
}

TEST(RowsChecksum, EveryWordOfALongRowCounts) {
  const std::int64_t bpr = 4096 + 13;  // lanes, then single words, then bytes
  auto data = rows(1, bpr);
  const std::uint64_t before = rows_checksum(0, 1, bpr, data.data());
  for (std::int64_t byte = 0; byte < bpr; byte += 37) {
    data[static_cast<std::size_t>(byte)] ^= std::byte{0x01};
    EXPECT_NE(rows_checksum(0, 1, bpr, data.data()), before) << "byte " << byte;
    data[static_cast<std::size_t>(byte)] ^= std::byte{0x01};
  }
}

TEST(RowsChecksum, SwappedRowsDiffer) {
  auto data = rows(2, 16);
  const std::uint64_t before = rows_checksum(0, 2, 16, data.data());
  std::swap_ranges(data.begin(), data.begin() + 16, data.begin() + 16);
  EXPECT_NE(rows_checksum(0, 2, 16, data.data()), before);
}

}  // namespace
}  // namespace mheta::io
