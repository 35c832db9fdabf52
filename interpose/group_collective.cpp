#include "interpose/group_collective.hpp"

#include <algorithm>

namespace mheta::interpose {

std::vector<GroupRound> group_rounds(model::Collective op, int size, int me, std::int64_t bytes) {
  std::vector<GroupRound> rounds;
  if (size < 2 || me < 0 || me >= size) return rounds;
  const auto round = [&](int offset, std::int64_t n) {
    rounds.push_back({(me + offset) % size, (me - offset + size) % size, n});
  };
  using model::Collective;
  switch (op) {
    case Collective::alltoall:
      for (int offset = 1; offset < size; ++offset) round(offset, bytes);
      return rounds;
    case Collective::gather:
    case Collective::scatter:
    case Collective::allgather:
    case Collective::reduce_scatter:
      // Bruck: the blocks gathered so far, doubling; (P - 1) n in all.
      for (int offset = 1; offset < size; offset *= 2) round(offset, std::min(offset, size - offset) * bytes);
      return rounds;
    case Collective::barrier:
      for (int offset = 1; offset < size; offset *= 2) round(offset, 0);
      return rounds;
    case Collective::bcast:
    case Collective::reduce:
    case Collective::allreduce:
    case Collective::scan:
      break;
  }
  for (int offset = 1; offset < size; offset *= 2) round(offset, bytes);
  return rounds;
}

}  // namespace mheta::interpose
