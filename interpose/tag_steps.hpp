#pragma once
// What detection sees of a message's tag. Some programs tag each step's
// messages with the step number (so that a late message can never be taken
// for the next step's): their tags never repeat, and a signature holding
// the tag never repeats either, so no loop would ever be found. Detection
// sees instead, per function and peer, the tag itself while it stays what
// it was at the last such call, and the step from that last tag when it
// changes: a step-numbered loop then repeats (step +1 every call), and a
// loop with a constant tag, or tags that take turns, is seen as before.
// No MPI.
#include <array>
#include <cstdint>

#include "interpose/call.hpp"

namespace mheta::interpose {

class TagSteps {
 public:
  // The value a call's signature holds for `tag`, sent to or received from
  // `peer` by `fn`: the tag when it equals the last one of (fn, peer) or is
  // the first, else its step from the last, marked so that a step is never
  // taken for a tag of that value.
  int seen(Fn fn, int peer, int tag);

 private:
  // Direct-mapped: a call whose slot another (fn, peer) took is seen as a
  // first call (its tag). A program talks to a few peers with a few
  // functions; the table's size bounds the cost and the memory.
  static constexpr std::size_t kSlots = 1024;  // a power of two
  struct Slot {
    std::uint64_t key = ~std::uint64_t{0};
    int tag = 0;
  };
  std::array<Slot, kSlots> slots_{};
};

}  // namespace mheta::interpose
