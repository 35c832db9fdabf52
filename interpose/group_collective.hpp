#pragma once
// A collective on a communicator of some but not all ranks (a row or column
// of a process grid), as the messages a rank exchanges in it. The model
// knows collectives over every rank only; over a group it prices the
// messages of a dissemination, each round a message to the member `to`
// places on and one from the member as far behind. The rounds' sends are
// synchronous (model::CommOp::synchronous): the last member to enter gets
// no message that waits for it, so without them it would leave each round
// once its bytes had left, a latency early. With them, a late member
// leaves every member at its entry plus the cost the virtual clock charges
// the collective (virtual_time.hpp, Hockney model, k = ceil(log2 P)):
//   barrier                          k rounds of 0 bytes         k alpha
//   bcast, reduce, allreduce, scan   k rounds of n bytes         k (alpha + n beta)
//   gather, scatter, allgather,      k rounds, 2^i n bytes       k alpha + (P-1) n beta
//   reduce_scatter                   (the last what remains)     (Bruck)
//   alltoall                         P-1 rounds of n bytes       (P-1)(alpha + n beta)
// No MPI.
#include <cstdint>
#include <vector>

#include "model/collective.hpp"

namespace mheta::interpose {

// One round: send `bytes` to the group's member `to`, receive as many from
// member `from`.
struct GroupRound {
  int to = 0;
  int from = 0;
  std::int64_t bytes = 0;
};

// The rounds of member `me` of a group of `size` in collective `op` of `bytes`
// per rank (per peer for alltoall); none for a group of one.
std::vector<GroupRound> group_rounds(model::Collective op, int size, int me, std::int64_t bytes);

}  // namespace mheta::interpose
