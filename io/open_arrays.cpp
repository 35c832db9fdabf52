#include "io/open_arrays.hpp"

#include "io/together.hpp"

namespace mheta::io {

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
      opened.arrays.push_back(opened.created ? LocalArray::create(dir, shape, dist, rank)
                                             : LocalArray::open(dir, shape, dist, rank));
    }
  });
  return opened;
}

}  // namespace mheta::io
