// The hand-written entry points: MPI_Init(_thread), MPI_Finalize and
// MPI_Pcontrol (variadic), the program-facing marks of <mheta/marks.h>, and
// the load-time export of the emulated memory budget.
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "interpose/emulation_config.hpp"
#include "interpose/engaged.hpp"
#include "interpose/export.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose {
namespace {

// MHETA_MEMORY_BYTES must be in the environment before the program reads it,
// which may be before MPI_Init: set it when the library is loaded, from the
// rank the process manager gives (MPICH hydra: PMI_RANK, PMI_SIZE).
__attribute__((constructor)) void export_emulated_memory() {
  const char* spec = std::getenv("MHETA_EMULATE");
  const char* rank = std::getenv("PMI_RANK");
  const char* size = std::getenv("PMI_SIZE");
  if (spec == nullptr || *spec == '\0' || rank == nullptr || size == nullptr) return;
  try {
    const Emulation emulation = load_emulation(spec);
    const RankEmulation& mine = emulation.for_rank(std::atoi(rank), std::atoi(size));
    if (mine.memory_bytes) setenv("MHETA_MEMORY_BYTES", std::to_string(*mine.memory_bytes).c_str(), 1);
  } catch (const std::exception&) {
    // Reported once MPI is up (settings.cpp); the program runs unemulated.
  }
}

}  // namespace
}  // namespace mheta::interpose

using mheta::interpose::ReentryGuard;
using mheta::interpose::Runtime;

extern "C" MHETA_EXPORT int MPI_Init(int* argc, char*** argv) {
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) Runtime::get().start(MPI_THREAD_SINGLE);
  return rc;
}

extern "C" MHETA_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) Runtime::get().start(*provided);
  return rc;
}

extern "C" MHETA_EXPORT int MPI_Finalize(void) {
  {
    const ReentryGuard guard;
    if (!guard.nested()) Runtime::get().finish();
  }
  return PMPI_Finalize();
}

extern "C" MHETA_EXPORT int MPI_Pcontrol(const int level, ...) {
  if (mheta::interpose::engaged()) {
    const ReentryGuard guard;
    if (!guard.nested()) Runtime::get().pcontrol(level);
  }
  return MPI_SUCCESS;
}

extern "C" MHETA_EXPORT void mheta_iteration(void) {
  if (!mheta::interpose::engaged()) return;
  const ReentryGuard guard;
  if (!guard.nested()) Runtime::get().mark_iteration();
}

extern "C" MHETA_EXPORT void mheta_stage_begin(const char* /*name*/) {
  if (!mheta::interpose::engaged()) return;
  Runtime& rt = Runtime::get();
  rt.enter();
  rt.leave();
  if (rt.capturing()) {
    std::lock_guard lock(rt.mutex());
    rt.timeline().mark_stage();
  }
}

extern "C" MHETA_EXPORT void mheta_stage_end(void) { mheta_stage_begin(nullptr); }
