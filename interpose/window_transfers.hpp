#pragma once
// The target's side of one-sided transfers (captured_windows.hpp). The
// capture records a put, get or accumulate on the origin as a non-blocking
// send completed at the fence that ends its epoch, or at the flush or
// unlock of its passive target epoch; the target took no part in the call,
// so its receive is added here, once every rank's period is known and
// lined up: just before the target's collective numbered as the first the
// origin calls at or after the completion (the same fence; after a flush,
// the barrier or reduction after which the program reads what was put),
// which waits for the transfer's bytes. A transfer without such a
// collective in the captured period is left out. No MPI.
#include <cstdint>
#include <vector>

#include "interpose/profile_assembly.hpp"

namespace mheta::interpose {

struct WindowTransfers {
  std::int64_t paired = 0;   // receives added
  std::int64_t dropped = 0;  // transfers left out: their fence is not in the period
};

// `records`: one per rank, indexed by rank, each a whole period; their
// collectives (fences among them) numbered alike (period_alignment.hpp).
WindowTransfers pair_window_transfers(std::vector<RankRecord>& records);

}  // namespace mheta::interpose
