#pragma once
// What a restart finds in a data directory after a redistribution was
// interrupted (a rank killed, the disk full, the machine down), and the
// repair that leaves exactly one complete distribution: the manifest's
// state decides (io/manifest.hpp). Programs and `mheta redistribute` call
// recover() before they open their local arrays.
#include <mpi.h>

#include <filesystem>
#include <optional>
#include <string>

#include "model/gen_block.hpp"

namespace mheta::io {

enum class RecoveryOutcome {
  never_redistributed,  // no manifest: the files are as the program wrote them
  complete,             // a manifest, nothing was in progress
  rolled_back,          // an uncommitted redistribution was discarded: the old distribution is complete
  rolled_forward,       // a committed one was finished: the new distribution is complete
};

struct Recovery {
  RecoveryOutcome outcome = RecoveryOutcome::never_redistributed;
  std::optional<model::GenBlock> dist;  // the distribution the data is in (from the manifest)
  std::string message;                  // one line for the user
};

// Repairs `dir` in this process alone (the data directory is visible to
// the process that calls it). Throws LocalArrayError naming the file when a
// block the complete distribution needs is missing, model::FormatError when
// the manifest is malformed, model::OutputError when it cannot be written.
Recovery recover_data_dir(const std::filesystem::path& dir);

// Collective over `comm`: rank 0 repairs, every rank gets its answer (or
// io::FailedTogether carrying rank 0's error).
Recovery recover(MPI_Comm comm, const std::filesystem::path& dir);

}  // namespace mheta::io
