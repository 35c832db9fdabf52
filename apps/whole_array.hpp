#pragma once
// Passes over a whole local array, chunk by chunk: generating its rows and
// checksumming them. Both go through the array's ICLAs, so they respect the
// memory budget like the main loop does.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>

#include "io/icla_array.hpp"

namespace mheta::apps {

// Writes every row: fill(global_row, row_bytes).
void generate_rows(io::IclaArray& array, const std::function<void(std::int64_t, std::span<std::byte>)>& fill);

// The exact checksum (apps/row_checksum.hpp) of the whole distributed array,
// the same on every rank. Collective over `comm`.
std::uint64_t array_checksum(io::IclaArray& array, MPI_Comm comm);

}  // namespace mheta::apps
