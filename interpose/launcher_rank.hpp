#pragma once
// The rank and size a process manager gives a process in its environment,
// before MPI_Init: MPICH hydra (PMI_RANK, PMI_SIZE), PMIx (PMIX_RANK),
// Open MPI (OMPI_COMM_WORLD_RANK, _SIZE), Slurm (SLURM_PROCID, SLURM_NTASKS)
// and MVAPICH (MV2_COMM_WORLD_RANK, _SIZE). After MPI_Init, MPI itself says.
#include <optional>

namespace mheta::interpose {

struct LauncherRank {
  int rank = 0;
  int size = 1;
};

// The first launcher whose variables are all set and valid (0 <= rank <
// size); nullopt when the process was not started by any of them.
std::optional<LauncherRank> launcher_rank();

}  // namespace mheta::interpose
