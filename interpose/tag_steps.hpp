#pragma once
// What detection sees of a message's tag. Some programs tag each step's
// messages with the step number, or with a running count of the messages
// sent (so that a late message can never be taken for a later one): their
// tags never repeat, and a signature holding the tag never repeats either,
// so no loop would ever be found. Per function and peer, detection sees the
// tag itself until kNewTagsInARow tags in a row were new ones (none of the
// last few seen there), and from then on its step from the last tag: a
// step-numbered loop then repeats (+1 call after call), and so does a
// counted one (+1, +3, +1, +3: two messages a step to one of two peers). A
// constant tag, or tags that take turns (two arrays, a tag each), are
// seen again and again and stay themselves, so such loops are found and
// counted from their first iteration as before. No MPI.
#include <array>
#include <cstdint>

#include "interpose/call.hpp"

namespace mheta::interpose {

class TagSteps {
 public:
  // New tags in a row on a function and peer (the last tag again, a
  // second array sent under the step's tag, breaks no run), from which its
  // tags are seen as steps. A loop that sends as many distinct tags to one
  // peer in one iteration (a ring shift's tag at each of 8 ranks) turns
  // stepping in its first iteration, which detection then sees apart from
  // the others: its count misses it. Fewer, and a stepping loop is found
  // sooner.
  static constexpr int kNewTagsInARow = 8;
  // How many of a function and peer's last distinct tags a tag is looked
  // for among, to tell whether it is new.
  static constexpr int kRecentTags = 8;

  // The value a call's signature holds for `tag`, sent to or received from
  // `peer` by `fn`: the tag, or once (fn, peer) steps its tags, the step
  // from the last one, marked so that a step is never taken for a tag.
  int seen(Fn fn, int peer, int tag);

 private:
  // Direct-mapped: a call whose slot another (fn, peer) took starts that
  // slot again. A program talks to a few peers with a few functions; the
  // table's size bounds the cost and the memory.
  static constexpr std::size_t kSlots = 1024;  // a power of two
  struct Slot {
    std::uint64_t key = ~std::uint64_t{0};
    int tag = 0;  // the last call's
    std::array<int, kRecentTags> recent{};
    int recent_count = 0;  // filled in `recent`, the oldest replaced first
    int new_in_a_row = 0;
    bool stepping = false;
  };
  // Whether `tag` is none of the slot's recent ones; a new one is kept.
  static bool note_new(Slot& slot, int tag);

  std::array<Slot, kSlots> slots_{};
};

}  // namespace mheta::interpose
