#include "interpose/varying_values.hpp"

#include <algorithm>
#include <bit>

namespace mheta::interpose {

VaryingValues::Value& VaryingValues::remember(Slot& slot, std::int64_t value) {
  Value* replaced = &slot.values[0];
  for (Value& v : slot.values) {
    if (!v.empty && v.value == value) {
      ++v.comings;
      v.last_call = slot.calls;
      return v;
    }
    if (!replaced->empty && (v.empty || v.last_call < replaced->last_call)) replaced = &v;
  }
  slot.new_values = std::min(slot.new_values + 1, kNewValuesToVary);
  *replaced = Value{.value = value, .empty = false, .first_call = slot.calls, .last_call = slot.calls, .comings = 1};
  return *replaced;
}

bool VaryingValues::usual(const Slot& slot, const Value& value) {
  const std::uint32_t calls_since = slot.calls - value.first_call;  // this one's included
  return value.comings >= kUsualComings && value.comings * kUsualShare >= calls_since;
}

// The product's top bits: each depends on all of the call's.
std::size_t VaryingValues::slot_of(std::uint64_t call) {
  return static_cast<std::size_t>((call * 0x9e3779b97f4a7c15ULL) >> (64 - std::countr_zero(kSlots)));
}

VaryingValues::Seen VaryingValues::see(std::uint64_t call, std::int64_t value, std::int64_t seen_as) {
  Slot& slot = slots_[slot_of(call)];
  if (slot.call != call) {
    slot = Slot{};
    slot.call = call;
  }
  const Value& v = remember(slot, value);
  ++slot.calls;
  if (slot.new_values < kNewValuesToVary || usual(slot, v)) return {.varies = false, .call_varies = slot.seen_apart};
  // Varying values that would all be seen alike need not be seen as varying:
  // a message whose size drifts within its power of two stays the call it
  // was, and its loop goes on unbroken. From the second way of seeing them,
  // they are seen as varying for good.
  if (!slot.seen_as_known) {
    slot.seen_as = seen_as;
    slot.seen_as_known = true;
  }
  slot.seen_apart = slot.seen_apart || seen_as != slot.seen_as;
  return {.varies = slot.seen_apart, .call_varies = slot.seen_apart};
}

}  // namespace mheta::interpose
