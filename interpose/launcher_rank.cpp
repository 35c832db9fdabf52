#include "interpose/launcher_rank.hpp"

#include <charconv>
#include <cstdlib>
#include <cstring>

namespace mheta::interpose {

namespace {

struct RankVariables {
  const char* rank;
  const char* size;  // nullptr: this launcher does not say the size
};

// In order of precedence: a process manager's own variables before those
// of the allocation it runs in (mpiexec inside a Slurm job sets PMI_RANK,
// while SLURM_PROCID is the job step's).
constexpr RankVariables kLaunchers[] = {
    {"PMI_RANK", "PMI_SIZE"},
    {"OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE"},
    {"PMIX_RANK", "OMPI_COMM_WORLD_SIZE"},
    {"MV2_COMM_WORLD_RANK", "MV2_COMM_WORLD_SIZE"},
    {"SLURM_PROCID", "SLURM_NTASKS"},
    {"SLURM_PROCID", "SLURM_NPROCS"},
};

std::optional<int> whole_number(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return std::nullopt;
  int value = 0;
  const char* end = text + std::strlen(text);
  const auto [stop, error] = std::from_chars(text, end, value);
  if (error != std::errc{} || stop != end || value < 0) return std::nullopt;
  return value;
}

}  // namespace

std::optional<LauncherRank> launcher_rank() {
  for (const RankVariables& v : kLaunchers) {
    const std::optional<int> rank = whole_number(v.rank);
    const std::optional<int> size = whole_number(v.size);
    if (rank && size && *rank < *size) return LauncherRank{*rank, *size};
  }
  return std::nullopt;
}

}  // namespace mheta::interpose
