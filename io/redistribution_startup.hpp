#pragma once
// What a program that keeps its arrays in local arrays calls before it
// opens them, when it may have been redistributed (a run with --auto, or
// `mheta redistribute`): repair an interrupted redistribution, then, when
// the data directory holds the variables in another distribution than the
// one this run was asked for, move them to it, so the run starts on its own
// distribution as always. Nothing happens in a directory without a
// manifest (never redistributed: io::open_or_create's checks apply), nor
// when the directory does not exist yet (a first run creates it).
#include <mpi.h>

#include <filesystem>
#include <string>
#include <vector>

#include "io/local_array.hpp"
#include "model/gen_block.hpp"

namespace mheta::io {

// Collective over `comm`. Returns what was done, one line for rank 0 to
// print, or an empty string when nothing was. Throws FailedTogether or
// RedistributionError (rolled back) on failure.
std::string bring_to_distribution(MPI_Comm comm, const std::filesystem::path& dir,
                                  const std::vector<RowShape>& variables, const model::GenBlock& dist);

}  // namespace mheta::io
