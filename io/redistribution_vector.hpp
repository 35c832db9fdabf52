#pragma once
// In-memory arrays distributed like the local arrays' rows (cg's and
// lanczos's x, r, p): when the runtime moves the rows (advisor/auto_redistribute.hpp),
// the program moves these with them. One MPI_Alltoallv of the rows that
// change owner (model/redistribution_plan.hpp); the rows a rank keeps are
// copied.
#include <mpi.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "model/gen_block.hpp"

namespace mheta::io {

// `local`: this rank's rows under `from`, `row_bytes` bytes each. Returns
// its rows under `to`. Collective over `comm`.
std::vector<std::byte> redistribute_in_memory(MPI_Comm comm, std::span<const std::byte> local, std::int64_t row_bytes,
                                              const model::GenBlock& from, const model::GenBlock& to);

// The same for rows of `width` elements of T.
template <class T>
std::vector<T> redistribute_in_memory(MPI_Comm comm, const std::vector<T>& local, std::int64_t width,
                                      const model::GenBlock& from, const model::GenBlock& to) {
  const std::vector<std::byte> moved = redistribute_in_memory(comm, std::as_bytes(std::span<const T>(local)),
                                                              width * static_cast<std::int64_t>(sizeof(T)), from, to);
  std::vector<T> out(moved.size() / sizeof(T));
  if (!moved.empty()) std::memcpy(out.data(), moved.data(), moved.size());
  return out;
}

}  // namespace mheta::io
