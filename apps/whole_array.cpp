#include "apps/whole_array.hpp"

#include "apps/row_checksum.hpp"

namespace mheta::apps {

void generate_rows(io::IclaArray& array, const std::function<void(std::int64_t, std::span<std::byte>)>& fill) {
  const std::size_t bytes_per_row = static_cast<std::size_t>(array.array().bytes_per_row());
  for (std::int64_t k = 0; k < array.chunk_count(); ++k) {
    const io::RowRange range = array.chunk(k);
    std::span<std::byte> rows = array.acquire_for_write(k);
    for (std::int64_t i = 0; i < range.count; ++i) {
      fill(array.array().first_row() + range.first + i,
           rows.subspan(static_cast<std::size_t>(i) * bytes_per_row, bytes_per_row));
    }
    array.release(k, true);
  }
}

std::uint64_t array_checksum(io::IclaArray& array, MPI_Comm comm) {
  const std::size_t bytes_per_row = static_cast<std::size_t>(array.array().bytes_per_row());
  std::uint64_t sum = 0;
  for (std::int64_t k = 0; k < array.chunk_count(); ++k) {
    const io::RowRange range = array.chunk(k);
    std::span<std::byte> rows = array.acquire(k);
    for (std::int64_t i = 0; i < range.count; ++i) {
      sum += row_checksum(array.array().first_row() + range.first + i,
                          rows.subspan(static_cast<std::size_t>(i) * bytes_per_row, bytes_per_row));
    }
    array.release(k, false);
  }
  std::uint64_t total = 0;
  MPI_Allreduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, comm);
  return total;
}

}  // namespace mheta::apps
