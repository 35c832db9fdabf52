#include "microbench/reference_kernel.hpp"

#include <cstring>

namespace mheta::microbench {

StencilKernel::StencilKernel(std::size_t n) : n_(n), a_(n * n), b_(n * n) {
  for (std::size_t i = 0; i < a_.size(); ++i) a_[i] = static_cast<double>(i % 97) * 0.01;
}

double StencilKernel::run(int sweeps) {
  for (int s = 0; s < sweeps; ++s) {
    for (std::size_t i = 1; i + 1 < n_; ++i) {
      for (std::size_t j = 1; j + 1 < n_; ++j) {
        const std::size_t k = i * n_ + j;
        b_[k] = 0.25 * (a_[k - 1] + a_[k + 1] + a_[k - n_] + a_[k + n_]);
      }
    }
    a_.swap(b_);
  }
  return a_[n_ * n_ / 2 + n_ / 2];
}

CopyKernel::CopyKernel(std::size_t bytes) : from_(bytes, 1), to_(bytes, 0) {}

double CopyKernel::run(int repeats) {
  for (int r = 0; r < repeats; ++r) {
    std::memcpy(to_.data(), from_.data(), from_.size());
    from_[static_cast<std::size_t>(r) % from_.size()] = static_cast<char>(r);
  }
  return static_cast<double>(to_[to_.size() / 2]);
}

}  // namespace mheta::microbench
