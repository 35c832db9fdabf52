#pragma once
// Failing together: a step that may fail on some ranks only (a missing
// file) must not leave the others waiting in the next collective.
#include <mpi.h>

#include <functional>
#include <stdexcept>

namespace mheta::io {

// Thrown on every rank when `step` failed on any. what() is this rank's own
// error, or empty when only other ranks failed.
class FailedTogether : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs `step` on every rank of `comm`, then agrees (one allreduce) on
// whether it failed anywhere. Collective.
void together(MPI_Comm comm, const std::function<void()>& step);

}  // namespace mheta::io
