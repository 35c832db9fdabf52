#include "io/redistribution_data_checksum.hpp"

#include <algorithm>
#include <vector>

#include "io/redistribution_checksum.hpp"
#include "io/together.hpp"

namespace mheta::io {

std::uint64_t data_checksum(MPI_Comm comm, const std::filesystem::path& dir, const RowShape& shape,
                            const model::GenBlock& dist, std::int64_t piece_bytes) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::uint64_t sum = 0;
  together(comm, [&] {
    LocalArray block = LocalArray::open(dir, shape, dist, rank);
    const std::int64_t bpr = shape.bytes_per_row();
    const std::int64_t piece_rows = std::max<std::int64_t>(1, piece_bytes / bpr);
    std::vector<std::byte> buffer(static_cast<std::size_t>(piece_rows * bpr));
    for (std::int64_t first = 0; first < block.local_rows(); first += piece_rows) {
      const std::int64_t rows = std::min(piece_rows, block.local_rows() - first);
      block.read_rows(first, rows, buffer.data());
      sum += rows_checksum(block.first_row() + first, rows, bpr, buffer.data());
    }
  });
  std::uint64_t total = 0;
  MPI_Allreduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, comm);
  return total;
}

}  // namespace mheta::io
