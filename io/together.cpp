#include "io/together.hpp"

#include <exception>
#include <string>

namespace mheta::io {

void together(MPI_Comm comm, const std::function<void()>& step) {
  std::string error;
  int failed = 0;
  try {
    step();
  } catch (const std::exception& e) {
    error = e.what();
    failed = 1;
  }
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, comm);
  if (any_failed) throw FailedTogether(error);
}

}  // namespace mheta::io
