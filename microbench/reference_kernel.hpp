#pragma once
// The single-node kernels, shared by the MPI program (which turns their
// times into cluster.json figures) and the Google Benchmark program
// `mheta-microbench-kernels` (which runs them on their own).
#include <cstddef>
#include <vector>

namespace mheta::microbench {

// The compute reference: 5-point Jacobi sweeps over an n x n grid, the inner
// loop of the stencil codes mheta models. CPU power is the inverse of its time.
class StencilKernel {
 public:
  explicit StencilKernel(std::size_t n = 256);
  // Runs `sweeps` sweeps; returns a checksum so the work cannot be optimised away.
  double run(int sweeps);
  std::size_t points() const { return n_ * n_; }

 private:
  std::size_t n_;
  std::vector<double> a_;
  std::vector<double> b_;
};

// Copies `bytes` between two buffers `repeats` times (memory bandwidth).
class CopyKernel {
 public:
  explicit CopyKernel(std::size_t bytes);
  double run(int repeats);
  std::size_t bytes() const { return from_.size(); }

 private:
  std::vector<char> from_;
  std::vector<char> to_;
};

}  // namespace mheta::microbench
