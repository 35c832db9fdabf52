#pragma once
// The messages of each channel a rank has sent or received since MPI_Init,
// so that a captured period knows where it began in every channel: the
// k-th message of a channel is the k-th the model pairs it with on the
// other side (MPI's non-overtaking rule). Ranks capture their periods on
// their own, each wherever its loop let it begin, and these numbers are
// what period_alignment.hpp lines them up by. No MPI.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/profile.hpp"

namespace mheta::interpose {

// A channel as this rank sees it: messages sent to `peer` with `tag`,
// received from `peer` with `tag`, or the collectives over every rank
// (which every rank calls in one order; peer -1, tag 0).
struct Channel {
  model::CommKind kind = model::CommKind::send;
  int peer = -1;
  int tag = 0;
  bool operator==(const Channel&) const = default;
};

// A channel's hash, for the tables that hold channels.
struct ChannelHash {
  std::size_t operator()(const Channel& c) const;
};

inline Channel collective_channel() { return {model::CommKind::collective, -1, 0}; }
// The tag of the messages a neighbourhood collective is recorded as
// (neighbour_messages.hpp): above any tag a program can give (MPI_TAG_UB,
// 2^31 - 1 at most and less in MPICH, whose tags keep some bits), so they
// are a channel of their own beside the program's point-to-point messages.
inline constexpr int kNeighbourTag = 2147483647;
// The tag of the messages a one-sided transfer is recorded as
// (captured_windows.hpp), for the same reason. They are in no channel: the
// fences that end their epochs place them, and the periods are lined up by
// the other messages and the collectives (period_alignment.hpp).
inline constexpr int kWindowTag = 2147483646;
// The tag of the messages a collective over some but not all ranks is
// recorded as (group_collective.hpp): a channel of their own per pair.
inline constexpr int kGroupTag = 2147483645;
// The tag of the notices and transfers of general active target epochs
// (captured_windows.hpp): a channel of their own per pair.
inline constexpr int kEpochTag = 2147483644;
// The channel of an operation the timeline records.
inline Channel channel_of(const model::CommOp& op) {
  return op.kind == model::CommKind::collective ? collective_channel() : Channel{op.kind, op.peer, op.tag};
}

// Where a captured period begins in a channel: the number of the channel's
// messages before its first one in the period.
struct ChannelStart {
  Channel channel;
  std::int64_t first = 0;
};

// Counts each channel's messages. One probe of an open-addressed table a
// message (it runs in the wrappers while a capture is to come). A program
// whose tags never repeat (a step number as the tag) would make a channel
// of every message: past kMaxChannels channels, new ones are not counted,
// and the memory stays bounded.
class ChannelCounter {
 public:
  static constexpr std::size_t kMaxChannels = std::size_t{1} << 16;

  ChannelCounter();
  // The number of this message in its channel (0 for the first), counted;
  // -1 for a channel past kMaxChannels (unknown).
  std::int64_t next(const Channel& channel);

 private:
  struct Slot {
    Channel channel;
    bool used = false;
    std::int64_t count = 0;
  };
  void grow();

  std::vector<Slot> slots_;
  std::size_t used_ = 0;
};

}  // namespace mheta::interpose
