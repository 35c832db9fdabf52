#pragma once
// Opening a program's local arrays, or creating them when the data
// directory does not hold them yet.
#include <mpi.h>

#include <filesystem>
#include <vector>

#include "io/local_array.hpp"

namespace mheta::io {

struct OpenedArrays {
  std::vector<LocalArray> arrays;  // in the order of the shapes
  bool created = false;            // new files: the caller generates their rows
};

// When no rank finds any of the files, every rank creates its blocks.
// Otherwise every rank opens and checks its blocks; a missing or
// inconsistent file fails on every rank (FailedTogether, with the message
// naming the file on the ranks that found it). Collective over `comm`.
OpenedArrays open_or_create(MPI_Comm comm, const std::filesystem::path& dir, const std::vector<RowShape>& shapes,
                            const model::GenBlock& dist);

}  // namespace mheta::io
