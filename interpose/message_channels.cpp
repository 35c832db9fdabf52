#include "interpose/message_channels.hpp"

#include <utility>

namespace mheta::interpose {

namespace {

constexpr std::size_t kFirstSlots = 64;  // a power of two

std::size_t slot_of(const Channel& c, std::size_t slots) { return ChannelHash{}(c) & (slots - 1); }

}  // namespace

std::size_t ChannelHash::operator()(const Channel& c) const {
  std::uint64_t key =
      static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.peer)) << 32 | static_cast<std::uint32_t>(c.tag);
  key += static_cast<std::uint64_t>(c.kind) * 0x9e3779b97f4a7c15ULL;
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdULL;
  key ^= key >> 33;
  return static_cast<std::size_t>(key);
}

ChannelCounter::ChannelCounter() : slots_(kFirstSlots) {}

std::int64_t ChannelCounter::next(const Channel& channel) {
  for (std::size_t i = slot_of(channel, slots_.size());; i = (i + 1) & (slots_.size() - 1)) {
    Slot& s = slots_[i];
    if (s.used && s.channel == channel) return s.count++;
    if (s.used) continue;
    if (used_ == kMaxChannels) return -1;
    s = {channel, true, 1};
    // At most half full: probes stay short.
    if (++used_ * 2 > slots_.size()) grow();
    return 0;
  }
}

void ChannelCounter::grow() {
  const std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(slots_.size() * 2));
  for (const Slot& s : old) {
    if (!s.used) continue;
    std::size_t i = slot_of(s.channel, slots_.size());
    while (slots_[i].used) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = s;
  }
}

}  // namespace mheta::interpose
