#include "interpose/tag_steps.hpp"

namespace mheta::interpose {

int TagSteps::seen(Fn fn, int peer, int tag) {
  const std::uint64_t key = static_cast<std::uint64_t>(fn) << 32 | static_cast<std::uint32_t>(peer);
  std::uint64_t h = key * 0x9e3779b97f4a7c15ULL;
  Slot& slot = slots_[(h >> 40) & (kSlots - 1)];
  if (slot.key != key) {
    slot = {key, tag};
    return tag;
  }
  const std::uint32_t step = static_cast<std::uint32_t>(tag) - static_cast<std::uint32_t>(slot.tag);
  slot.tag = tag;
  if (step == 0) return tag;
  // Tags are >= 0 (MPI_ANY_TAG aside): a step is marked negative.
  return static_cast<int>((step * 2654435761U) | 0x80000000U);
}

}  // namespace mheta::interpose
