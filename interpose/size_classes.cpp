#include "interpose/size_classes.hpp"

#include <algorithm>
#include <bit>

namespace mheta::interpose {

std::uint64_t SizeClasses::size_class(std::int64_t bytes) {
  return static_cast<std::uint64_t>(std::bit_width(static_cast<std::uint64_t>(std::max<std::int64_t>(0, bytes))));
}

SizeClasses::Size& SizeClasses::remember(Slot& slot, std::int64_t bytes) {
  Size* replaced = &slot.sizes[0];
  for (Size& size : slot.sizes) {
    if (size.bytes == bytes) {
      ++size.comings;
      size.last_call = slot.calls;
      return size;
    }
    if (replaced->bytes >= 0 && (size.bytes < 0 || size.last_call < replaced->last_call)) replaced = &size;
  }
  slot.new_sizes = std::min(slot.new_sizes + 1, kNewSizesToVary);
  *replaced = Size{.bytes = bytes, .first_call = slot.calls, .last_call = slot.calls, .comings = 1};
  return *replaced;
}

bool SizeClasses::usual(const Slot& slot, const Size& size) {
  const std::uint32_t calls_since = slot.calls - size.first_call;  // this one's included
  return size.comings >= kUsualComings && size.comings * kUsualShare >= calls_since;
}

std::uint64_t SizeClasses::seen(std::uint64_t call, std::int64_t bytes) {
  // The product's top bits: each depends on all of the call's.
  Slot& slot = slots_[(call * 0x9e3779b97f4a7c15ULL) >> (64 - std::countr_zero(kSlots))];
  if (slot.call != call) {
    slot = Slot{};
    slot.call = call;
  }
  const Size& size = remember(slot, std::max<std::int64_t>(0, bytes));
  ++slot.calls;
  const bool varying = slot.new_sizes >= kNewSizesToVary;
  return !varying || usual(slot, size) ? size_class(bytes) : kVarying;
}

}  // namespace mheta::interpose
