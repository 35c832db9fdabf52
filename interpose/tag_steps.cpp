#include "interpose/tag_steps.hpp"

#include <algorithm>

namespace mheta::interpose {

bool TagSteps::note_new(Slot& slot, int tag) {
  const auto filled = slot.recent.begin() + std::min(slot.recent_count, kRecentTags);
  if (std::find(slot.recent.begin(), filled, tag) != filled) return false;
  slot.recent[static_cast<std::size_t>(slot.recent_count % kRecentTags)] = tag;
  ++slot.recent_count;
  return true;
}

int TagSteps::seen(Fn fn, int peer, int tag) {
  const std::uint64_t key = static_cast<std::uint64_t>(fn) << 32 | static_cast<std::uint32_t>(peer);
  Slot& slot = slots_[((key * 0x9e3779b97f4a7c15ULL) >> 40) & (kSlots - 1)];
  if (slot.key != key) {
    slot = Slot{};
    slot.key = key;
    slot.tag = tag;
    note_new(slot, tag);
    return tag;
  }
  const std::uint32_t step = static_cast<std::uint32_t>(tag) - static_cast<std::uint32_t>(slot.tag);
  slot.tag = tag;
  if (!slot.stepping) {
    if (step != 0) slot.new_in_a_row = note_new(slot, tag) ? slot.new_in_a_row + 1 : 0;
    slot.stepping = slot.new_in_a_row >= kNewTagsInARow;
    if (!slot.stepping) return tag;
  }
  // Tags are >= 0 (MPI_ANY_TAG, -1, aside): a step is marked negative.
  return static_cast<int>((step * 2654435761U) | 0x80000000U);
}

}  // namespace mheta::interpose
