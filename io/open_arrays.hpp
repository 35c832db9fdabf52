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

// Where new blocks are created and their rows generated, beside <dir>: a
// block appears in <dir> only once it is whole (publish_generated), so a
// generation cut short (disk full, a crash) is never taken for input.
std::filesystem::path generating_dir(const std::filesystem::path& dir);

// When no rank finds any of the files, every rank creates its blocks (in
// generating_dir(dir); the caller writes their rows, then publishes them).
// Otherwise every rank opens and checks its blocks; a missing or
// inconsistent file fails on every rank (FailedTogether, with the message
// naming the file on the ranks that found it). Collective over `comm`.
OpenedArrays open_or_create(MPI_Comm comm, const std::filesystem::path& dir, const std::vector<RowShape>& shapes,
                            const model::GenBlock& dist);

// Moves every rank's freshly generated blocks into <dir> once all ranks have
// written them; nothing is moved when any rank failed (FailedTogether).
// Collective over `comm`.
void publish_generated(MPI_Comm comm, const std::filesystem::path& dir, OpenedArrays& opened);

}  // namespace mheta::io
