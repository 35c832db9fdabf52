#include "io/redistribution_vector.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>
#include <string>

#include "model/redistribution_plan.hpp"

namespace mheta::io {

std::vector<std::byte> redistribute_in_memory(MPI_Comm comm, std::span<const std::byte> local, std::int64_t row_bytes,
                                              const model::GenBlock& from, const model::GenBlock& to) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const auto r = static_cast<std::size_t>(rank);
  if (static_cast<std::int64_t>(local.size()) != from.rows[r] * row_bytes) {
    throw std::invalid_argument("redistribute_in_memory: rank " + std::to_string(rank) + " holds " +
                                std::to_string(local.size()) + " bytes, its rows under the old distribution are " +
                                std::to_string(from.rows[r] * row_bytes));
  }
  const std::int64_t old_first = from.first_row(rank);
  const std::int64_t new_first = to.first_row(rank);
  std::vector<std::byte> out(static_cast<std::size_t>(to.rows[r] * row_bytes));
  // Rows kept.
  const std::int64_t keep_first = std::max(old_first, new_first);
  const std::int64_t keep_end = std::min(old_first + from.rows[r], new_first + to.rows[r]);
  if (keep_end > keep_first) {
    std::memcpy(out.data() + (keep_first - new_first) * row_bytes, local.data() + (keep_first - old_first) * row_bytes,
                static_cast<std::size_t>((keep_end - keep_first) * row_bytes));
  }
  // Rows that change owner: at most one contiguous run per pair of ranks,
  // so the send and receive displacements are the runs' offsets in place.
  std::vector<int> send_counts(static_cast<std::size_t>(size), 0), send_offsets(static_cast<std::size_t>(size), 0);
  std::vector<int> recv_counts(static_cast<std::size_t>(size), 0), recv_offsets(static_cast<std::size_t>(size), 0);
  for (const model::RowTransfer& t : model::plan_transfers(from, to)) {
    const std::int64_t bytes = t.rows * row_bytes;
    if (bytes > INT_MAX) throw std::invalid_argument("redistribute_in_memory: more than 2 GiB between two ranks");
    if (t.from == rank) {
      send_counts[static_cast<std::size_t>(t.to)] = static_cast<int>(bytes);
      send_offsets[static_cast<std::size_t>(t.to)] = static_cast<int>((t.first_row - old_first) * row_bytes);
    }
    if (t.to == rank) {
      recv_counts[static_cast<std::size_t>(t.from)] = static_cast<int>(bytes);
      recv_offsets[static_cast<std::size_t>(t.from)] = static_cast<int>((t.first_row - new_first) * row_bytes);
    }
  }
  MPI_Alltoallv(local.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, out.data(), recv_counts.data(),
                recv_offsets.data(), MPI_BYTE, comm);
  return out;
}

}  // namespace mheta::io
