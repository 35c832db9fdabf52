#pragma once
// Moving a program's HDF5 local arrays from one GEN_BLOCK distribution to
// another while nothing can be lost (docs/redistribution.md):
//  1. rank 0 records "prepared" (from, to, variables) in the manifest;
//  2. every rank writes its new blocks in <dir>/mheta-staging/: the rows it
//     keeps are copied, the rows that change owner (model/redistribution_plan)
//     are exchanged over MPI in pieces of at most `piece_bytes`, each with the
//     sender's checksum of the rows it read;
//  3. every rank syncs its new blocks, reopens them (row counts and metadata
//     checked) and reads every piece back against its checksum;
//  4. all agree, or all abort and the old distribution stays as it was;
//  5. rank 0 commits the manifest; every rank renames its new blocks over
//     the old ones;
//  6. in the background, rank 0 records "complete" (the old blocks' space
//     is freed there too).
// A crash at any point leaves one complete distribution that recover()
// (io/redistribution_recovery.hpp) names and repairs.
#include <mpi.h>

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "io/local_array.hpp"
#include "model/gen_block.hpp"

namespace mheta::io {

// The redistribution failed on some rank and was rolled back: the data is
// complete in the old distribution. what() names the rank and the problem.
class RedistributionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RedistributionOptions {
  // A rank's buffers hold at most two pieces (those being received, none
  // when it receives nothing); the rows it sends are sent from its old
  // block's mapping.
  std::int64_t piece_bytes = std::int64_t{4} << 20;
};

struct RedistributionStats {
  std::int64_t bytes_written = 0;  // every rank's new blocks, all variables
  std::int64_t bytes_moved = 0;    // rows that changed owner (over MPI)
  std::int64_t pieces = 0;         // messages
  double exchange_s = 0;           // copy, exchange and write (the slowest rank)
  double verify_s = 0;             // sync, reopen, read back
  double switch_s = 0;             // commit, renames (completion is in the background)
  double total_s = 0;
};

// Collective over `comm`, whose ranks are the distributions' ranks. The
// old blocks (<dir>/<var>.<rank>.h5 under `from`) must be written and
// closed by the program, or at least flushed: they are reopened here.
// Throws RedistributionError (the same on every rank) after rolling back.
RedistributionStats redistribute(MPI_Comm comm, const std::filesystem::path& dir,
                                 const std::vector<RowShape>& variables, const model::GenBlock& from,
                                 const model::GenBlock& to, const RedistributionOptions& options = {});

}  // namespace mheta::io
