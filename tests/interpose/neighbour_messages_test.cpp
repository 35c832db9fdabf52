#include "interpose/neighbour_messages.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace mheta::interpose {
namespace {

constexpr int kNone = -1;  // MPI_PROC_NULL's value in MPICH; any negative rank is none

std::vector<std::int64_t> bytes_of(const std::vector<NeighbourMessage>& messages) {
  std::vector<std::int64_t> out;
  for (const NeighbourMessage& m : messages) out.push_back(m.bytes);
  return out;
}

std::vector<int> peers_of(const std::vector<NeighbourMessage>& messages) {
  std::vector<int> out;
  for (const NeighbourMessage& m : messages) out.push_back(m.peer);
  return out;
}

// The first rank of a non-periodic line: nothing below it, rank 1 above.
TEST(NeighbourMessages, NoMessageToProcNull) {
  const std::vector<int> neighbours{kNone, 1};
  const std::vector<std::int64_t> blocks{400, 400};
  const NeighbourMessages m = neighbour_messages(0, neighbours, blocks, neighbours, blocks);
  EXPECT_EQ(peers_of(m.sends), std::vector<int>{1});
  EXPECT_EQ(peers_of(m.receives), std::vector<int>{1});
  EXPECT_EQ(bytes_of(m.sends), std::vector<std::int64_t>{400});
}

// Blocks are by position: a PROC_NULL neighbour's block is skipped, not
// given to the next neighbour (a v-form's counts of a boundary rank).
TEST(NeighbourMessages, BlocksKeepTheirNeighbours) {
  const std::vector<int> destinations{kNone, 5, 7};
  const std::vector<std::int64_t> sent{10, 20, 30};
  const std::vector<int> sources{3, kNone, 4};
  const std::vector<std::int64_t> received{40, 50, 60};
  const NeighbourMessages m = neighbour_messages(9, destinations, sent, sources, received);
  EXPECT_EQ(peers_of(m.sends), (std::vector<int>{5, 7}));
  EXPECT_EQ(bytes_of(m.sends), (std::vector<std::int64_t>{20, 30}));
  // Receives in reverse order of the sources (below).
  EXPECT_EQ(peers_of(m.receives), (std::vector<int>{4, 3}));
  EXPECT_EQ(bytes_of(m.receives), (std::vector<std::int64_t>{60, 40}));
}

// A periodic dimension of two ranks: each is the other's neighbour below
// and above. Rank 0 sends 100 bytes down and 200 up; the block it sends up
// arrives in rank 1's block from below (200 bytes there), the one it sends
// down in rank 1's block from above (100). The model pairs the k-th message
// from 0 to 1 with rank 1's k-th receive from 0: each pair must be of the
// same block.
TEST(NeighbourMessages, RepeatedNeighbourPairsEachBlockWithItself) {
  const NeighbourMessages rank0 =
      neighbour_messages(0, std::vector<int>{1, 1}, std::vector<std::int64_t>{100, 200}, std::vector<int>{1, 1},
                         std::vector<std::int64_t>{0, 0});
  const NeighbourMessages rank1 =
      neighbour_messages(1, std::vector<int>{0, 0}, std::vector<std::int64_t>{0, 0}, std::vector<int>{0, 0},
                         std::vector<std::int64_t>{200, 100});
  ASSERT_EQ(rank0.sends.size(), 2U);
  ASSERT_EQ(rank1.receives.size(), 2U);
  for (std::size_t k = 0; k < 2; ++k) {
    EXPECT_EQ(rank0.sends[k].peer, 1);
    EXPECT_EQ(rank1.receives[k].peer, 0);
    EXPECT_EQ(rank0.sends[k].bytes, rank1.receives[k].bytes) << "message " << k;
  }
}

// An isolated rank of a graph, and counts shorter than the neighbours
// (never read past).
TEST(NeighbourMessages, NoNeighboursNoMessages) {
  const NeighbourMessages none = neighbour_messages(0, {}, {}, {}, {});
  EXPECT_TRUE(none.sends.empty());
  EXPECT_TRUE(none.receives.empty());
  const NeighbourMessages short_counts =
      neighbour_messages(0, std::vector<int>{1, 2}, std::vector<std::int64_t>{8}, std::vector<int>{}, {});
  EXPECT_EQ(peers_of(short_counts.sends), std::vector<int>{1});
}

// A periodic dimension of one rank: the rank is both its neighbours there,
// and its blocks to itself are a copy, not messages (the model has no
// message of a rank to itself); its other dimension's neighbours stay.
TEST(NeighbourMessages, NoMessageToItself) {
  const std::vector<int> neighbours{3, 3, 2, 4};
  const std::vector<std::int64_t> blocks{8, 16, 24, 32};
  const NeighbourMessages m = neighbour_messages(3, neighbours, blocks, neighbours, blocks);
  EXPECT_EQ(peers_of(m.sends), (std::vector<int>{2, 4}));
  EXPECT_EQ(bytes_of(m.sends), (std::vector<std::int64_t>{24, 32}));
  EXPECT_EQ(peers_of(m.receives), (std::vector<int>{4, 2}));
}

}  // namespace
}  // namespace mheta::interpose
