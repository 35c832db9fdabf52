// The hand-written entry points: MPI_Init(_thread), MPI_Session_init (said
// not followed), MPI_Finalize, MPI_Pcontrol (variadic) and MPI_Wtime, the
// program-facing functions of <mheta/marks.h> and <mheta/interposer.h>, and
// the load-time export of the emulated memory budget.
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mheta/environment.hpp>
#include <optional>
#include <string>

#include "interpose/boundary_counter.hpp"
#include "interpose/clock.hpp"
#include "interpose/emulation_config.hpp"
#include "interpose/engaged.hpp"
#include "interpose/export.hpp"
#include "interpose/launcher_rank.hpp"
#include "interpose/pmpi_redirect.hpp"
#include "interpose/profile_output.hpp"
#include "interpose/runtime.hpp"
#include "interpose/sleep_wait.hpp"

namespace mheta::interpose {
namespace {

// MHETA_MEMORY_BYTES must be in the environment before the program reads it,
// which may be before MPI_Init: set it when the library is loaded, from the
// rank the launcher gives (interpose/launcher_rank.hpp), else in MPI_Init
// from MPI's own rank.
bool g_memory_exported = false;

void export_emulated_memory(int rank, int size) {
  const char* spec = std::getenv(env::kEmulate);
  if (spec == nullptr || *spec == '\0') return;
  g_memory_exported = true;
  try {
    const Emulation emulation = load_emulation(spec);
    const RankEmulation& mine = emulation.for_rank(rank, size);
    if (mine.memory_bytes) setenv(env::kMemoryBytes, std::to_string(*mine.memory_bytes).c_str(), 1);
  } catch (const std::exception&) {
    // Reported once MPI is up (settings.cpp); the program runs unemulated.
  }
}

__attribute__((constructor)) void export_emulated_memory_at_load() {
  if (const std::optional<LauncherRank> launched = launcher_rank()) export_emulated_memory(launched->rank, launched->size);
}

void export_emulated_memory_from_mpi() {
  if (g_memory_exported) return;
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  export_emulated_memory(rank, size);
}

// Calls by PMPI_ names that still go straight to MPI (pmpi_redirect.hpp):
// said once, by rank 0, since what they do is then not seen.
void say_unredirected(const PmpiRedirects& redirected) {
  if (redirected.failed == 0) return;
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return;
  std::fprintf(stderr,
               "mheta interpose: %d calls the program's libraries make by PMPI_ names (a Fortran mpi_f08 "
               "binding's) could not be sent through the interposer (their entries stayed read-only): those "
               "calls are not seen\n",
               redirected.failed);
}

// MPI-4's sessions: a program that starts MPI with MPI_Session_init is not
// followed until it calls MPI_Init, where the interposer starts (its
// settings, services and shadow communicators hang on MPI_COMM_WORLD).
// Said once, by the launcher's rank 0 (every process when the launcher is
// not known), so that a run without a profile says why.
void say_session_unfollowed() {
  static std::atomic<bool> said{false};
  int initialized = 0;
  PMPI_Initialized(&initialized);
  if (initialized != 0 || said.exchange(true)) return;
  const std::optional<LauncherRank> launched = launcher_rank();
  if (launched && launched->rank != 0) return;
  std::fprintf(stderr,
               "mheta interpose: the program starts MPI with MPI_Session_init (MPI-4 sessions); the interposer "
               "starts at MPI_Init, so until the program calls it nothing is followed: no capture, no emulation, "
               "no profile\n");
}

// The run's iterations, counted to MPI_Finalize whatever the capture does
// (the profile prices the whole run with them: `mheta predict`): the
// program's iteration marks, else its MPI_Pcontrol(1) calls when it made
// several (one may bracket a single iteration of many: no count), else the
// k-th calls of the function that ends an iteration (`call:` mode, or the
// one automatic detection found: boundary_counter.hpp). Counted even when
// nothing else is followed: one relaxed increment per iteration.
std::atomic<std::int64_t> g_pcontrol_starts{0};

std::int64_t iterations_counted() {
  const std::int64_t marks = marks_counted();
  if (marks > 0) return marks;
  const std::int64_t starts = g_pcontrol_starts.load(std::memory_order_relaxed);
  return starts > 1 ? starts : boundaries_counted();
}

// A program that ends without MPI_Finalize (exit() or a Fortran STOP after
// its last output, as some codes do) would end without the profile and the
// records, which are gathered there. At a clean exit (status 0) the ranks
// meet on a communicator of their own, and once every rank has come the
// runtime finishes as at MPI_Finalize (MPI is still up: only the program
// skipped its end). The meeting waits MHETA_GATHER_WAIT seconds at most: a
// rank that exits alone (the others still running, or waiting for it)
// says so and exits as it would have; an error exit (status not 0) does
// not wait at all. MPICH's launcher ends the other processes of a job as
// soon as one exits without MPI_Finalize, so the ranks meet again once rank
// 0 has written, and then finalize.
MPI_Comm g_exit_comm = MPI_COMM_NULL;

bool every_rank_at_exit(double wait_s) {
  MPI_Request meeting = MPI_REQUEST_NULL;
  if (PMPI_Ibarrier(g_exit_comm, &meeting) != MPI_SUCCESS) return false;
  return completes_by(meeting, now_s() + wait_s);  // one not met is left: the process ends
}

void finish_at_exit(int status, void*) {
  Runtime& rt = Runtime::get();
  int finalized = 0;
  PMPI_Finalized(&finalized);
  if (finalized != 0 || rt.finished() || status != 0) return;
  const ReentryGuard guard;
  if (guard.nested()) return;
  const double wait = static_cast<double>(rt.settings().gather_wait_s);
  if (!every_rank_at_exit(wait)) {
    std::fprintf(stderr,
                 "mheta interpose: rank %d: the program ended without MPI_Finalize, and the other ranks did not end "
                 "within %.0f s (MHETA_GATHER_WAIT): no profile or records from this run\n",
                 rt.world_rank(), wait);
    return;
  }
  if (rt.world_rank() == 0) {
    std::fprintf(stderr,
                 "mheta interpose: the program ended without MPI_Finalize: its ranks met at exit, where the profile "
                 "and records were gathered\n");
  }
  rt.finish();
  rewrite_profile_with_run_iterations(iterations_counted(), rt.settings());
  // The launcher ends every process of the job once one has exited without
  // MPI_Finalize: no rank leaves before rank 0 has written, and once all
  // are here MPI is finalized for the program, so that the launcher does
  // not kill the ranks still exiting (with it, a job whose ranks all meet
  // here ends as one that finalized; without it, MPICH's launcher reported
  // some of them killed, exit 9).
  if (!every_rank_at_exit(wait)) return;
  PMPI_Comm_free(&g_exit_comm);
  PMPI_Finalize();
}

void finish_also_at_exit() {
  Runtime& rt = Runtime::get();
  if (!rt.watching() || g_exit_comm != MPI_COMM_NULL) return;
  if (PMPI_Comm_dup(MPI_COMM_WORLD, &g_exit_comm) == MPI_SUCCESS) on_exit(finish_at_exit, nullptr);
}

// Once MPI_Init has returned: the runtime and its services started, and the
// program's first compute section begins after them. Their start
// (communicators duplicated, the wake board's window) is collective and
// spins inside MPI while the other ranks start; counted as compute it put
// rank 0's first call at 0.17 s of virtual time, and a CPU factor 3 rank's
// at 0.5 s, on 8 ranks sharing 2 cores.
void start_watching(int thread_level) {
  const ReentryGuard guard;  // MPI's clock reads in the services' start are MPI's own (program_clocks.hpp)
  Runtime& rt = Runtime::get();
  rt.start(thread_level);
  finish_also_at_exit();
  rt.leave();
}

}  // namespace
}  // namespace mheta::interpose

using mheta::interpose::PmpiRedirects;
using mheta::interpose::ReentryGuard;
using mheta::interpose::Runtime;

extern "C" MHETA_EXPORT int MPI_Init(int* argc, char*** argv) {
  const PmpiRedirects redirected = mheta::interpose::redirect_pmpi_calls();  // objects loaded since the library was
  const int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) mheta::interpose::say_unredirected(redirected);
  if (rc == MPI_SUCCESS) mheta::interpose::export_emulated_memory_from_mpi();
  if (rc == MPI_SUCCESS) mheta::interpose::start_watching(MPI_THREAD_SINGLE);
  return rc;
}

extern "C" MHETA_EXPORT int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const PmpiRedirects redirected = mheta::interpose::redirect_pmpi_calls();
  const int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) mheta::interpose::say_unredirected(redirected);
  if (rc == MPI_SUCCESS) mheta::interpose::export_emulated_memory_from_mpi();
  if (rc == MPI_SUCCESS) mheta::interpose::start_watching(*provided);
  return rc;
}

#if MPI_VERSION >= 4
extern "C" MHETA_EXPORT int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session* session) {
  const int rc = PMPI_Session_init(info, errhandler, session);
  if (rc == MPI_SUCCESS) mheta::interpose::say_session_unfollowed();
  return rc;
}
#endif

extern "C" MHETA_EXPORT int MPI_Finalize(void) {
  {
    const ReentryGuard guard;
    if (!guard.nested()) {
      Runtime& runtime = Runtime::get();
      runtime.finish();
      mheta::interpose::rewrite_profile_with_run_iterations(mheta::interpose::iterations_counted(), runtime.settings());
    }
  }
  return PMPI_Finalize();
}

extern "C" MHETA_EXPORT int MPI_Pcontrol(const int level, ...) {
  if (level > 0) mheta::interpose::g_pcontrol_starts.fetch_add(1, std::memory_order_relaxed);
  if (mheta::interpose::engaged()) {
    const ReentryGuard guard;
    if (!guard.nested()) Runtime::get().pcontrol(level);
  }
  return MPI_SUCCESS;
}

extern "C" MHETA_EXPORT void mheta_iteration(void) {
  mheta::interpose::count_mark();
  if (!mheta::interpose::engaged()) return;
  const ReentryGuard guard;
  if (!guard.nested()) Runtime::get().program_mark();
}

// The clock's resolution: the virtual clock's under it, else MPICH's.
extern "C" MHETA_EXPORT double MPI_Wtick(void) {
  if (!mheta::interpose::engaged()) return PMPI_Wtick();
  Runtime& rt = Runtime::get();
  return rt.clock().on() ? mheta::interpose::VirtualClock::kTick : PMPI_Wtick();
}

extern "C" MHETA_EXPORT void mheta_stage_begin(const char* /*name*/) {
  if (!mheta::interpose::engaged()) return;
  const ReentryGuard guard;
  if (guard.nested()) return;
  Runtime& rt = Runtime::get();
  rt.enter();
  rt.leave();
  if (rt.capturing()) {
    std::lock_guard lock(rt.mutex());
    rt.timeline().mark_stage();
  }
}

extern "C" MHETA_EXPORT void mheta_stage_end(void) { mheta_stage_begin(nullptr); }

// The time the program reads: the real one unless a service changes it.
// MPICH's clock is read inside the guard, where the program's clocks are
// the machine's (program_clocks.hpp).
extern "C" MHETA_EXPORT double MPI_Wtime(void) {
  if (!mheta::interpose::engaged()) return PMPI_Wtime();
  const ReentryGuard guard;
  const double now = PMPI_Wtime();
  return guard.nested() ? now : Runtime::get().wtime(now);
}

// <mheta/interposer.h>
extern "C" MHETA_EXPORT long long mheta_capture_iteration(void) { return Runtime::get().settings().capture_iteration; }

// <mheta/interposer.h>: the rates this rank runs at, once MPI_Init returned.
extern "C" MHETA_EXPORT void mheta_emulated_slowdown(double* cpu, double* io) {
  const Runtime& rt = Runtime::get();
  if (cpu != nullptr) *cpu = rt.compute_factor();
  if (io != nullptr) *io = rt.file_io_factor();
}
