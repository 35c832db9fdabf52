#pragma once
// The checksum of a whole distributed variable (io/redistribution_checksum.hpp),
// the same whatever its distribution: what must not change when the data
// moves, or when a redistribution is interrupted and recovered.
#include <mpi.h>

#include <cstdint>
#include <filesystem>

#include "io/local_array.hpp"
#include "model/gen_block.hpp"

namespace mheta::io {

// Reads this rank's block of `shape` under `dist` in pieces of at most
// `piece_bytes`; the sum over every rank. Collective over `comm`.
std::uint64_t data_checksum(MPI_Comm comm, const std::filesystem::path& dir, const RowShape& shape,
                            const model::GenBlock& dist, std::int64_t piece_bytes = std::int64_t{4} << 20);

}  // namespace mheta::io
