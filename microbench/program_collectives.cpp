#include "microbench/program_collectives.hpp"

#include <algorithm>
#include <cstdint>

#include "model/iteration_collectives.hpp"

namespace mheta::microbench {

std::vector<ProgramCollective> program_collectives(const model::Profile& profile) {
  std::vector<ProgramCollective> out;
  if (const auto calls = model::iteration_collectives(profile)) {
    for (const model::IterationCollective& call : *calls) out.push_back({call.op, profile.rank_count(), call.bytes});
  } else {  // ranks that disagree on the order: every rank's own
    for (const model::RankProfile& rank : profile.ranks) {
      for (const model::Section& section : rank.sections) {
        for (const model::CommOp& op : section.comm) {
          if (op.kind == model::CommKind::collective) out.push_back({op.collective, profile.rank_count(), op.bytes});
        }
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<ProgramCollective> read_program_collectives(const std::vector<std::string>& profiles) {
  std::vector<ProgramCollective> out;
  for (const std::string& file : profiles) {
    const std::vector<ProgramCollective> own = program_collectives(model::read_profile(file));
    out.insert(out.end(), own.begin(), own.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void share_program_collectives(std::vector<ProgramCollective>& list, MPI_Comm comm) {
  int count = static_cast<int>(list.size());
  MPI_Bcast(&count, 1, MPI_INT, 0, comm);
  std::vector<std::int64_t> packed;
  for (const ProgramCollective& c : list) packed.insert(packed.end(), {static_cast<std::int64_t>(c.op), c.ranks, c.bytes});
  packed.resize(3 * static_cast<std::size_t>(count));
  MPI_Bcast(packed.data(), 3 * count, MPI_INT64_T, 0, comm);
  list.clear();
  for (std::size_t i = 0; i < packed.size(); i += 3) {
    list.push_back({static_cast<model::Collective>(packed[i]), static_cast<int>(packed[i + 1]), packed[i + 2]});
  }
}

}  // namespace mheta::microbench
