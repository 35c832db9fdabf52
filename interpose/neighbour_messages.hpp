#pragma once
// A neighbourhood collective as the capture records it: the messages the
// model prices it by (docs/interpose.md, "What is recorded"). For the model
// one is what the virtual clock already times it as (docs/emulation.md):
// one block to each out-neighbour, leaving the rank's link in turn, and one
// from each in-neighbour, the rank done once its own blocks have left and
// its sources' have arrived; in the profile, non-blocking sends, their
// completion, and receives. No MPI.
#include <cstdint>
#include <span>
#include <vector>

namespace mheta::interpose {

struct NeighbourMessage {
  int peer = -1;  // a rank of MPI_COMM_WORLD
  std::int64_t bytes = 0;
};

struct NeighbourMessages {
  std::vector<NeighbourMessage> sends;     // in the order of the topology's destinations
  std::vector<NeighbourMessage> receives;  // in the reverse order of its sources
};

// `destinations` and `sources`: the neighbours in the topology's order as
// ranks of MPI_COMM_WORLD, a negative one none (MPI_PROC_NULL past a
// non-periodic edge of a Cartesian topology, which gets no message), and
// `self` this rank, whose blocks to itself (a periodic dimension of one
// rank) are a copy in its memory, not a message between ranks;
// `send_bytes[j]`: the block to destination j, `recv_bytes[i]`: the one
// from source i (both by position, PROC_NULL neighbours included, as MPI
// lays out the buffers).
//
// A neighbour listed twice gets a message each time. In a periodic
// Cartesian dimension of two ranks (or one) both neighbours are the same
// rank, and the block a rank sends up arrives, as MPI defines it, in its
// neighbour's block from below: the first block to a rank is the last one
// from it. The receives are therefore in reverse order, as MPICH posts
// them since it follows that definition (one tag for a call's blocks,
// MPI's messages not overtaking one another), so that the model, which
// pairs the k-th message of a channel with its k-th receive, pairs each
// block with the one it arrives as. (MPICH 4.0, Debian's, posts them in
// order: blocks of one size, a torus's usual halos, arrive alike either
// way; blocks of two sizes are received wrongly there, the program's
// problem before the model's.)
NeighbourMessages neighbour_messages(int self, std::span<const int> destinations,
                                     std::span<const std::int64_t> send_bytes, std::span<const int> sources,
                                     std::span<const std::int64_t> recv_bytes);

}  // namespace mheta::interpose
