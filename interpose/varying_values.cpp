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

bool VaryingValues::varies(std::uint64_t call, std::int64_t value) {
  // The product's top bits: each depends on all of the call's.
  Slot& slot = slots_[(call * 0x9e3779b97f4a7c15ULL) >> (64 - std::countr_zero(kSlots))];
  if (slot.call != call) {
    slot = Slot{};
    slot.call = call;
  }
  const Value& v = remember(slot, value);
  ++slot.calls;
  return slot.new_values >= kNewValuesToVary && !usual(slot, v);
}

}  // namespace mheta::interpose
