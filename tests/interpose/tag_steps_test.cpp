#include "interpose/tag_steps.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mheta::interpose {
namespace {

// What one step of a halo exchange shows detection: receives from and
// sends to each of two neighbours, under `tag`.
std::vector<int> step_seen(TagSteps& steps, int tag) {
  std::vector<int> seen;
  for (Fn fn : {Fn::Irecv, Fn::Isend}) {
    for (int peer : {0, 2}) seen.push_back(steps.seen(fn, peer, tag));
  }
  return seen;
}

TEST(TagSteps, AConstantTagIsSeenAsItself) {
  TagSteps steps;
  for (int step = 0; step < 10; ++step) EXPECT_EQ(step_seen(steps, 7), (std::vector<int>{7, 7, 7, 7}));
}

// The step number as the tag: the tags themselves until kNewTagsInARow new
// ones came in a row, then every step looks alike.
TEST(TagSteps, AStepNumberedTagRepeatsAsItsStep) {
  TagSteps steps;
  for (int step = 0; step < TagSteps::kNewTagsInARow; ++step) {
    EXPECT_EQ(step_seen(steps, 2 * step), (std::vector<int>(4, 2 * step))) << step;
  }
  const std::vector<int> stepping = step_seen(steps, 2 * TagSteps::kNewTagsInARow);
  for (int v : stepping) {
    EXPECT_LT(v, 0);  // never a tag
    EXPECT_EQ(v, stepping[0]);
  }
  for (int step = TagSteps::kNewTagsInARow + 1; step < 20; ++step) EXPECT_EQ(step_seen(steps, 2 * step), stepping);

  // A step of 1 is seen apart from a step of 2.
  TagSteps by_one;
  for (int step = 0; step < TagSteps::kNewTagsInARow; ++step) step_seen(by_one, step);
  EXPECT_NE(step_seen(by_one, TagSteps::kNewTagsInARow)[0], stepping[0]);
}

// Two messages a step to one peer under the step's tag: the second keeps
// the tag, which does not break the run of new tags, and the step repeats.
TEST(TagSteps, ATagSentTwiceAStepStillSteps) {
  TagSteps steps;
  std::vector<std::vector<int>> seen;
  for (int step = 0; step < 10; ++step) {
    seen.push_back({steps.seen(Fn::Send, 1, step), steps.seen(Fn::Send, 1, step)});
  }
  EXPECT_EQ(seen[TagSteps::kNewTagsInARow - 1], (std::vector<int>(2, TagSteps::kNewTagsInARow - 1)));
  const std::vector<int>& stepping = seen[TagSteps::kNewTagsInARow];
  EXPECT_LT(stepping[0], 0);
  EXPECT_LT(stepping[1], 0);
  EXPECT_NE(stepping[0], stepping[1]);
  for (std::size_t step = TagSteps::kNewTagsInARow + 1; step < seen.size(); ++step) EXPECT_EQ(seen[step], stepping);
}

// A running count of the messages sent as the tag, two messages a step to
// each of two peers: one peer's tags move by 1, then 3, and so on. Seen as
// steps, the calls repeat from step to step.
TEST(TagSteps, ACountedTagRepeatsAsItsSteps) {
  TagSteps steps;
  int counter = 0;
  std::vector<std::vector<int>> seen;
  for (int step = 0; step < 12; ++step) {
    std::vector<int> calls;
    for (int peer : {1, 1, 2, 2}) calls.push_back(steps.seen(Fn::Isend, peer, counter++));
    seen.push_back(calls);
  }
  const std::vector<int>& stepping = seen[5];
  for (int v : stepping) EXPECT_LT(v, 0);
  EXPECT_NE(stepping[0], stepping[1]);  // +3 from the last step's, then +1
  for (std::size_t step = 6; step < seen.size(); ++step) EXPECT_EQ(seen[step], stepping) << step;
}

// Two tags taking turns on one peer (two arrays a step) never move by one
// step in a row: they are seen as themselves from the first call on, so
// the loop's first iteration is like the others.
TEST(TagSteps, TagsTakingTurnsAreSeenAsThemselves) {
  TagSteps steps;
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(steps.seen(Fn::Send, 1, 10), 10);
    EXPECT_EQ(steps.seen(Fn::Send, 1, 11), 11);
  }
}

// Functions and peers are followed apart: another peer's tag is no move,
// and one peer's stepping tags leave the others' tags as they are.
TEST(TagSteps, EachFunctionAndPeerHasItsOwnTags) {
  TagSteps steps;
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(steps.seen(Fn::Send, 1, 5), 5);
    EXPECT_EQ(steps.seen(Fn::Recv, 2, 9), 9);
    const int seen = steps.seen(Fn::Send, 2, i);
    if (i < TagSteps::kNewTagsInARow) {
      EXPECT_EQ(seen, i);
    } else {
      EXPECT_LT(seen, 0);
    }
  }
}

}  // namespace
}  // namespace mheta::interpose
