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

}  // namespace mheta::interpose
