#include "io/redistribution_recovery.hpp"

#include <string>

#include "io/background_release.hpp"
#include "io/local_array.hpp"
#include "io/manifest.hpp"
#include "io/together.hpp"
#include "model/text_file.hpp"

namespace mheta::io {

namespace {

// Every block of the distribution the manifest declares complete exists.
void require_blocks(const std::filesystem::path& dir, const Manifest& m, const model::GenBlock& dist) {
  for (const RowShape& v : m.variables) {
    for (int r = 0; r < dist.ranks(); ++r) {
      const auto path = local_array_path(dir, v.variable, r);
      if (!std::filesystem::exists(path)) {
        throw LocalArrayError(path.string() + ": missing, though " + manifest_path(dir).string() +
                              " says the distribution " + model::rows_in_brackets(dist) + " is complete");
      }
    }
  }
}

}  // namespace

Recovery recover_data_dir(const std::filesystem::path& dir) {
  // A redistribution of this process may still be recording its completion.
  wait_for_background_release();
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) throw LocalArrayError(dir.string() + ": is not a directory");
  const std::optional<Manifest> found = read_manifest(dir);
  const std::filesystem::path staging = staging_dir(dir);
  Recovery recovery;
  if (!found) {
    // A staging directory without a manifest cannot be ours to trust.
    std::filesystem::remove_all(staging);
    recovery.message = dir.string() + ": never redistributed";
    return recovery;
  }
  Manifest m = *found;
  switch (m.state) {
    case ManifestState::complete:
      std::filesystem::remove_all(staging);
      recovery.outcome = RecoveryOutcome::complete;
      recovery.message = dir.string() + ": complete in the distribution " + model::rows_in_brackets(m.to);
      break;
    case ManifestState::prepared:
      // Not committed: the old blocks were never touched; the new ones may
      // be partial. Discard them, and record the old distribution.
      require_blocks(dir, m, m.from);
      std::filesystem::remove_all(staging);
      sync_directory(dir);
      recovery.outcome = RecoveryOutcome::rolled_back;
      recovery.message = dir.string() + ": an interrupted redistribution from " + model::rows_in_brackets(m.from) + " to " +
                         model::rows_in_brackets(m.to) +
                         " had not committed; discarded it. The data is complete in the old "
                         "distribution " +
                         model::rows_in_brackets(m.from);
      m.to = m.from;
      break;
    case ManifestState::committed:
      // Every new block was synced and verified before the commit: finish
      // moving them over the old ones. A block missing from the staging
      // directory was already switched.
      for (const RowShape& v : m.variables) {
        for (int r = 0; r < m.to.ranks(); ++r) {
          const auto staged = local_array_path(staging, v.variable, r);
          if (std::filesystem::exists(staged)) std::filesystem::rename(staged, local_array_path(dir, v.variable, r));
        }
      }
      sync_directory(dir);
      require_blocks(dir, m, m.to);
      std::filesystem::remove_all(staging);
      recovery.outcome = RecoveryOutcome::rolled_forward;
      recovery.message = dir.string() + ": an interrupted redistribution from " + model::rows_in_brackets(m.from) + " to " +
                         model::rows_in_brackets(m.to) +
                         " had committed; finished it. The data is complete in the new "
                         "distribution " +
                         model::rows_in_brackets(m.to);
      m.from = m.to;
      break;
  }
  if (m.state != ManifestState::complete) {
    m.state = ManifestState::complete;
    try {
      write_manifest(dir, m);
    } catch (const model::OutputError& error) {
      // A full disk may refuse even the small new manifest. The data is
      // whole all the same, and the old manifest stays true: `prepared`
      // still means the old distribution is complete (a later recovery
      // discards the now absent staging directory again), `committed` the
      // new one (every block is switched already).
      recovery.message += " (the manifest could not be updated: " + std::string(error.what()) +
                          "; it still records the interrupted redistribution, which the next recovery settles the "
                          "same way)";
    }
  }
  recovery.dist = m.to;
  return recovery;
}

Recovery recover(MPI_Comm comm, const std::filesystem::path& dir) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  Recovery recovery;
  together(comm, [&] {
    if (rank == 0) recovery = recover_data_dir(dir);
  });
  // Rank 0's answer, as numbers and one string.
  std::int64_t head[2] = {static_cast<std::int64_t>(recovery.outcome), recovery.dist ? recovery.dist->ranks() : -1};
  MPI_Bcast(head, 2, MPI_INT64_T, 0, comm);
  recovery.outcome = static_cast<RecoveryOutcome>(head[0]);
  if (head[1] >= 0) {
    if (rank != 0) recovery.dist = model::GenBlock{std::vector<std::int64_t>(static_cast<std::size_t>(head[1]))};
    MPI_Bcast(recovery.dist->rows.data(), static_cast<int>(head[1]), MPI_INT64_T, 0, comm);
  }
  int length = static_cast<int>(recovery.message.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  recovery.message.resize(static_cast<std::size_t>(length));
  MPI_Bcast(recovery.message.data(), length, MPI_CHAR, 0, comm);
  return recovery;
}

}  // namespace mheta::io
