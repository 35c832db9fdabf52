#include "interpose/call.hpp"

namespace mheta::interpose {

const char* fn_name(Fn fn) {
  static constexpr const char* kNames[] = {
#define MHETA_MPI(Name, ...) "MPI_" #Name,
#include "interpose/mpi_functions_all.def"
#undef MHETA_MPI
  };
  return kNames[static_cast<int>(fn)];
}

Category fn_category(Fn fn) {
  static constexpr Category kCategories[] = {
#define MHETA_MPI(Name, Cat, ...) Category::Cat,
#include "interpose/mpi_functions_all.def"
#undef MHETA_MPI
  };
  return kCategories[static_cast<int>(fn)];
}

}  // namespace mheta::interpose
