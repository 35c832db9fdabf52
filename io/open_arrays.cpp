#include "io/open_arrays.hpp"

#include "io/manifest.hpp"
#include "io/together.hpp"

namespace mheta::io {

std::filesystem::path generating_dir(const std::filesystem::path& dir) { return dir / "mheta-generating"; }

OpenedArrays open_or_create(MPI_Comm comm, const std::filesystem::path& dir, const std::vector<RowShape>& shapes,
                            const model::GenBlock& dist) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int found = 0;
  for (const RowShape& shape : shapes) {
    found += std::filesystem::exists(local_array_path(dir, shape.variable, rank)) ? 1 : 0;
  }
  int found_anywhere = 0;
  MPI_Allreduce(&found, &found_anywhere, 1, MPI_INT, MPI_SUM, comm);
  OpenedArrays opened;
  opened.created = found_anywhere == 0;
  together(comm, [&] {
    for (const RowShape& shape : shapes) {
      opened.arrays.push_back(opened.created ? LocalArray::create(generating_dir(dir), shape, dist, rank)
                                             : LocalArray::open(dir, shape, dist, rank));
    }
  });
  return opened;
}

void publish_generated(MPI_Comm comm, const std::filesystem::path& dir, OpenedArrays& opened) {
  if (!opened.created) return;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  // Every block synced on every rank before any is renamed: a rank that
  // failed leaves all of them aside, and the next run generates them again.
  together(comm, [&] {
    for (LocalArray& a : opened.arrays) a.sync();
  });
  together(comm, [&] {
    for (LocalArray& a : opened.arrays) a.rename_to(local_array_path(dir, a.shape().variable, rank));
  });
  together(comm, [&] {
    if (rank != 0) return;
    sync_directory(dir);
    std::error_code ignored;
    std::filesystem::remove(generating_dir(dir), ignored);  // when empty: other programs' blocks may be there
  });
  opened.created = false;
}

}  // namespace mheta::io
