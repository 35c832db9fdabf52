#pragma once
// Gathers every rank's record to rank 0 over the interposer's private
// communicator and writes profile.json there. Collective over `comm`.
#include <mpi.h>

#include <string>
#include <vector>

#include "interpose/profile_assembly.hpp"
#include "interpose/settings.hpp"

namespace mheta::interpose {

// The gather, non-blocking on every rank so that no rank waits in it
// while another needs it to go on (a rank that cannot reach the gather
// before a message of this one is received): every rank posts, on the
// private communicator and in this order, the gather of its record's
// length, the gather of the record, and the broadcast of whether rank 0
// wrote the profile; rank 0 posts the second once it knows the lengths,
// and the third once it has assembled and written the profile.
struct ProfileGather {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  int size = 1;
  std::string text;  // this rank's record
  int length = 0;
  std::vector<int> lengths;  // rank 0: every rank's
  std::vector<int> displacements;
  std::string all;  // rank 0: every rank's record
  int written = 0;  // rank 0 wrote the profile
  MPI_Request lengths_gathered = MPI_REQUEST_NULL;
  MPI_Request records_gathered = MPI_REQUEST_NULL;
  MPI_Request answered = MPI_REQUEST_NULL;
  bool records_posted = false;
  bool answer_posted = false;
};
// `gather` must stay where it is until finished: MPI holds its addresses.
void start_profile_gather(MPI_Comm comm, RankRecord record, ProfileGather& gather);
// Takes the gather as far as it goes within `seconds` (polled with sleeps;
// infinity: to its end). Returns whether it ended; then `gather.written`
// says on every rank whether rank 0 wrote the profile. A failure is
// reported once on rank 0's stderr and never stops the program.
bool advance_profile_gather(ProfileGather& gather, const Settings& settings, double seconds);

// At MPI_Finalize, after the profile was written: `counted` is the
// iterations this rank saw over the whole run (its iteration marks, else its
// MPI_Pcontrol(1) calls; 0 when it cannot tell). Rank 0 rewrites the profile,
// atomically, with the largest count of any rank, unless MHETA_ITERATIONS
// stated it. The profile written at the end of capture stays as it was when
// the run ends before this (a crash) or nothing was counted. Collective over
// MPI_COMM_WORLD; does nothing when no profile was written.
void rewrite_profile_with_run_iterations(std::int64_t counted, const Settings& settings);

}  // namespace mheta::interpose
