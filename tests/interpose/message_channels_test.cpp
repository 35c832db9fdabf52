#include "interpose/message_channels.hpp"

#include <gtest/gtest.h>

namespace mheta::interpose {
namespace {

TEST(ChannelCounter, NumbersEachChannelsMessagesApart) {
  ChannelCounter counter;
  const Channel to1{model::CommKind::send, 1, 7};
  const Channel from1{model::CommKind::recv, 1, 7};
  EXPECT_EQ(counter.next(to1), 0);
  EXPECT_EQ(counter.next(to1), 1);
  EXPECT_EQ(counter.next(from1), 0);
  EXPECT_EQ(counter.next(collective_channel()), 0);
  EXPECT_EQ(counter.next({model::CommKind::send, 1, 8}), 0);
  // Many channels: the table grows and keeps every count.
  for (int peer = 0; peer < 1000; ++peer) counter.next({model::CommKind::send, peer, 3});
  for (int peer = 0; peer < 1000; ++peer) EXPECT_EQ(counter.next({model::CommKind::send, peer, 3}), 1);
  EXPECT_EQ(counter.next(to1), 2);
}

// A tag that never repeats makes a channel of every message: the table
// stops at kMaxChannels, and the channels it holds are still counted.
TEST(ChannelCounter, ChannelsPastTheLimitAreNotCounted) {
  ChannelCounter counter;
  for (std::size_t tag = 0; tag < ChannelCounter::kMaxChannels; ++tag) {
    ASSERT_EQ(counter.next({model::CommKind::send, 1, static_cast<int>(tag)}), 0);
  }
  EXPECT_EQ(counter.next({model::CommKind::send, 1, -5}), -1);
  EXPECT_EQ(counter.next({model::CommKind::send, 1, 0}), 1);
}

}  // namespace
}  // namespace mheta::interpose
