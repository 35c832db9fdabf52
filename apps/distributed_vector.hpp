#pragma once
// Dense vectors distributed like the matrix rows (GEN_BLOCK): the
// allgatherv that gives every rank the whole vector, and global dot products
// (allreduce), as cg and lanczos use them.
#include <mpi.h>

#include <numeric>
#include <vector>

#include "model/gen_block.hpp"

namespace mheta::apps {

class DistributedVectors {
 public:
  DistributedVectors(MPI_Comm comm, const model::GenBlock& dist) : comm_(comm) {
    for (int r = 0; r < dist.ranks(); ++r) {
      counts_.push_back(static_cast<int>(dist.rows[static_cast<std::size_t>(r)]));
      offsets_.push_back(static_cast<int>(dist.first_row(r)));
    }
  }

  // Every rank's block of `local`, in rank order, into `whole`.
  void gather(const std::vector<double>& local, std::vector<double>& whole) const {
    MPI_Allgatherv(local.data(), static_cast<int>(local.size()), MPI_DOUBLE, whole.data(), counts_.data(),
                   offsets_.data(), MPI_DOUBLE, comm_);
  }

  double dot(const std::vector<double>& a, const std::vector<double>& b) const {
    double local = std::inner_product(a.begin(), a.end(), b.begin(), 0.0);
    double global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, comm_);
    return global;
  }

 private:
  MPI_Comm comm_;
  std::vector<int> counts_;
  std::vector<int> offsets_;
};

}  // namespace mheta::apps
