#pragma once
// The GEN_BLOCK distribution a run uses: dist.txt when given, else Blk.
#include <cstdint>
#include <filesystem>

#include "model/gen_block.hpp"

namespace mheta::io {

// Reads and checks `dist_file` against the run's ranks and global rows
// (throws model::FormatError naming the file); Blk when `dist_file` is empty.
model::GenBlock run_distribution(const std::filesystem::path& dist_file, int ranks, std::int64_t global_rows);

}  // namespace mheta::io
