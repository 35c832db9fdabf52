#pragma once
// Gathers every rank's record to rank 0 over the interposer's private
// communicator and writes profile.json there. Collective over `comm`.
#include <mpi.h>

#include "interpose/profile_assembly.hpp"
#include "interpose/settings.hpp"

namespace mheta::interpose {

// Returns true on every rank when rank 0 wrote the profile. A failure is
// reported once on rank 0's stderr and never stops the program.
bool gather_and_write_profile(MPI_Comm comm, RankRecord record, const Settings& settings);

// At MPI_Finalize, after the profile was written: `counted` is the
// iterations this rank saw over the whole run (its iteration marks, else its
// MPI_Pcontrol(1) calls; 0 when it cannot tell). Rank 0 rewrites the profile,
// atomically, with the largest count of any rank, unless MHETA_ITERATIONS
// stated it. The profile written at the end of capture stays as it was when
// the run ends before this (a crash) or nothing was counted. Collective over
// MPI_COMM_WORLD; does nothing when no profile was written.
void rewrite_profile_with_run_iterations(std::int64_t counted, const Settings& settings);

}  // namespace mheta::interpose
