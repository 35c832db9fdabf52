#pragma once
// The collectives a captured program calls, at the rank and byte counts it
// calls them with: `mheta-microbench --profile p.json` times each there, so
// that the model prices them by what they cost at those sizes rather than by
// a curve fitted over others (docs/microbench.md, "A program's own
// collectives").
#include <mpi.h>

#include <string>
#include <vector>

#include "microbench/options.hpp"
#include "model/profile.hpp"

namespace mheta::microbench {

using ProgramCollective = Options::ProgramCollective;

// The k-th collective of every rank is one call (MPI requires the same
// order), taken at the largest byte count any rank gave it, as the model
// prices it (model/model.cpp, compile_collectives). Sorted, each once.
std::vector<ProgramCollective> program_collectives(const model::Profile& profile);

// The union over the files; throws model::FormatError naming a file that
// cannot be read as a profile.
std::vector<ProgramCollective> read_program_collectives(const std::vector<std::string>& profiles);

// Rank 0's list, on every rank.
void share_program_collectives(std::vector<ProgramCollective>& list, MPI_Comm comm);

}  // namespace mheta::microbench
