#include "interpose/tag_steps.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mheta::interpose {
namespace {

// The values one step of a halo exchange shows detection: receives from
// and sends to each of two neighbours, with the tag `tag_of(step)`.
std::vector<int> step_seen(TagSteps& steps, int tag) {
  std::vector<int> seen;
  for (Fn fn : {Fn::Irecv, Fn::Isend}) {
    for (int peer : {0, 2}) seen.push_back(steps.seen(fn, peer, tag));
  }
  return seen;
}

TEST(TagSteps, AConstantTagIsSeenAsItself) {
  TagSteps steps;
  for (int step = 0; step < 5; ++step) EXPECT_EQ(step_seen(steps, 7), (std::vector<int>{7, 7, 7, 7}));
}

// The step number as the tag: every step after the first looks alike.
TEST(TagSteps, AStepNumberedTagRepeatsAsItsStep) {
  TagSteps steps;
  EXPECT_EQ(step_seen(steps, 0), (std::vector<int>{0, 0, 0, 0}));
  const std::vector<int> second = step_seen(steps, 1);
  for (int step = 2; step < 6; ++step) EXPECT_EQ(step_seen(steps, step), second);
  // Marked: a step of 1 is not the tag 1.
  for (int v : second) {
    EXPECT_NE(v, 1);
    EXPECT_EQ(v, second[0]);
  }
  // A step of 2 (tags 2 * step) is seen apart from a step of 1.
  TagSteps doubled;
  step_seen(doubled, 0);
  EXPECT_NE(step_seen(doubled, 2)[0], second[0]);
}

// Two tags taking turns on one peer (two arrays a step) repeat with the
// same period as the tags themselves, and stay told apart.
TEST(TagSteps, TagsTakingTurnsStayApart) {
  TagSteps steps;
  steps.seen(Fn::Send, 1, 10);
  const int up = steps.seen(Fn::Send, 1, 11);
  const int down = steps.seen(Fn::Send, 1, 10);
  EXPECT_NE(up, down);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(steps.seen(Fn::Send, 1, 11), up);
    EXPECT_EQ(steps.seen(Fn::Send, 1, 10), down);
  }
}

// Functions and peers are followed apart: another peer's tag is no step.
TEST(TagSteps, EachFunctionAndPeerHasItsOwnLastTag) {
  TagSteps steps;
  EXPECT_EQ(steps.seen(Fn::Send, 1, 5), 5);
  EXPECT_EQ(steps.seen(Fn::Send, 2, 9), 9);
  EXPECT_EQ(steps.seen(Fn::Recv, 1, 9), 9);
  EXPECT_EQ(steps.seen(Fn::Send, 1, 5), 5);
  EXPECT_EQ(steps.seen(Fn::Send, 2, 9), 9);
}

}  // namespace
}  // namespace mheta::interpose
