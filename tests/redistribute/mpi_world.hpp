// The MPI set-up the test programs here share: MPI_Init when made,
// MPI_Finalize when gone, so every way out of main finalizes (a usage error
// included) after the objects made later (local arrays, files) are gone.
#pragma once

#include <mpi.h>

namespace mheta::test {

class MpiWorld {
 public:
  MpiWorld(int& argc, char**& argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  ~MpiWorld() { MPI_Finalize(); }
  MpiWorld(const MpiWorld&) = delete;
  MpiWorld& operator=(const MpiWorld&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace mheta::test
