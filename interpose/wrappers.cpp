// The MPI_ functions of libmheta-interpose.so, stamped out from
// mpi_functions.def: the iteration-boundary count (boundary_counter.hpp),
// then one flag test and the PMPI_ call when not engaged, otherwise the
// category handler (dispatch.cpp, handlers.hpp).
#include <mpi.h>

#include "interpose/boundary_counter.hpp"
#include "interpose/call.hpp"
#include "interpose/dispatch.hpp"
#include "interpose/engaged.hpp"
#include "interpose/export.hpp"

using mheta::interpose::CallInfo;
using mheta::interpose::Category;
using mheta::interpose::Collective;
using mheta::interpose::Fn;
using mheta::interpose::SyncRead;

#define MHETA_EXPAND(...) __VA_ARGS__
#define MHETA_NB(nonblocking_call) [&](MPI_Request* req) -> int { return nonblocking_call; }
#define MHETA_NO_NB nullptr
// Inside the handler's call, `status` and `statuses` are the CallInfo's: a
// handler may have replaced MPI_STATUS(ES)_IGNORE with its own storage.
#define MHETA_MPI(Name, Cat, Params, Args, Info, Nb)                                \
  extern "C" MHETA_EXPORT int MPI_##Name Params {                                   \
    mheta::interpose::count_boundary_call(Fn::Name);                                \
    if (__builtin_expect(!mheta::interpose::engaged(), 1)) return PMPI_##Name Args; \
    CallInfo mheta_call{MHETA_EXPAND Info};                                         \
    return mheta::interpose::dispatch(                                              \
        Fn::Name, Category::Cat, mheta_call,                                        \
        [&]() -> int {                                                              \
          [[maybe_unused]] MPI_Status* status = mheta_call.status;                  \
          [[maybe_unused]] MPI_Status* statuses = mheta_call.statuses;              \
          return PMPI_##Name Args;                                                  \
        },                                                                          \
        Nb);                                                                        \
  }
#include "interpose/mpi_functions_all.def"
#undef MHETA_MPI
