#pragma once
// Gathers every rank's record to rank 0 over the interposer's private
// communicator and writes profile.json there. Collective over `comm`.
#include <mpi.h>

#include <string>
#include <vector>

#include "interpose/profile_assembly.hpp"
#include "interpose/settings.hpp"

namespace mheta::interpose {

// The gather in two steps: started, each rank's record's length on its way
// to rank 0 by a non-blocking MPI_Igather, so that a rank may go on with
// its program while the others have not reached the gather yet; then
// finished (the records themselves, rank 0 assembling and writing the
// profile, everyone told whether it was), which blocks.
struct ProfileGather {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int size = 1;
  std::string text;  // this rank's record
  int length = 0;
  std::vector<int> lengths;  // rank 0: every rank's
  MPI_Request lengths_gathered = MPI_REQUEST_NULL;
};
// `gather` must stay where it is until finished: MPI holds its addresses.
void start_profile_gather(MPI_Comm comm, RankRecord record, ProfileGather& gather);
// Returns true on every rank when rank 0 wrote the profile. A failure is
// reported once on rank 0's stderr and never stops the program.
bool finish_profile_gather(ProfileGather& gather, const Settings& settings);

// At MPI_Finalize, after the profile was written: `counted` is the
// iterations this rank saw over the whole run (its iteration marks, else its
// MPI_Pcontrol(1) calls; 0 when it cannot tell). Rank 0 rewrites the profile,
// atomically, with the largest count of any rank, unless MHETA_ITERATIONS
// stated it. The profile written at the end of capture stays as it was when
// the run ends before this (a crash) or nothing was counted. Collective over
// MPI_COMM_WORLD; does nothing when no profile was written.
void rewrite_profile_with_run_iterations(std::int64_t counted, const Settings& settings);

}  // namespace mheta::interpose
