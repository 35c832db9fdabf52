#include "io/redistribution_startup.hpp"

#include "io/redistribution.hpp"
#include "io/redistribution_recovery.hpp"

namespace mheta::io {

std::string bring_to_distribution(MPI_Comm comm, const std::filesystem::path& dir,
                                  const std::vector<RowShape>& variables, const model::GenBlock& dist) {
  // Every rank sees the same directory (docs/redistribution.md), so all
  // take the same branch.
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return {};
  const Recovery recovery = recover(comm, dir);
  std::string said;
  if (recovery.outcome == RecoveryOutcome::rolled_back || recovery.outcome == RecoveryOutcome::rolled_forward) {
    said = recovery.message;
  }
  if (!recovery.dist || *recovery.dist == dist) return said;
  if (recovery.dist->ranks() != dist.ranks() || recovery.dist->total_rows() != dist.total_rows()) {
    // Another run's data (other ranks or sizes): open_or_create names the mismatch.
    return said;
  }
  const RedistributionStats stats = redistribute(comm, dir, variables, *recovery.dist, dist);
  if (!said.empty()) said += "\n";
  return said + dir.string() + ": moved from " + model::rows_in_brackets(*recovery.dist) + " to this run's distribution " +
         model::rows_in_brackets(dist) + " in " + std::to_string(stats.total_s) + " s";
}

}  // namespace mheta::io
