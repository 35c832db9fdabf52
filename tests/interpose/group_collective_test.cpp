#include "interpose/group_collective.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "interpose/virtual_time.hpp"

namespace mheta::interpose {
namespace {

using model::Collective;

constexpr Collective kAll[] = {
    Collective::barrier,   Collective::bcast,   Collective::reduce,   Collective::allreduce,      Collective::gather,
    Collective::allgather, Collective::scatter, Collective::alltoall, Collective::reduce_scatter, Collective::scan};

// The rounds as (to, from, bytes), to compare with the expected ones.
std::vector<std::tuple<int, int, std::int64_t>> rounds_of(model::Collective op, int size, int me, std::int64_t bytes) {
  std::vector<std::tuple<int, int, std::int64_t>> out;
  for (const GroupRound& r : group_rounds(op, size, me, bytes)) out.emplace_back(r.to, r.from, r.bytes);
  return out;
}

using Rounds = std::vector<std::tuple<int, int, std::int64_t>>;

TEST(GroupRounds, AnAllreduceOfFourIsTwoRoundsOfDissemination) {
  EXPECT_EQ(rounds_of(Collective::allreduce, 4, 1, 80), (Rounds{{2, 0, 80}, {3, 3, 80}}));
}

// Bruck on 5: 1 block, 2, then the 1 still missing.
TEST(GroupRounds, AnAllgatherSendsTheBlocksGatheredSoFar) {
  EXPECT_EQ(rounds_of(Collective::allgather, 5, 0, 10), (Rounds{{1, 4, 10}, {2, 3, 20}, {4, 1, 10}}));
}

TEST(GroupRounds, AnAlltoallExchangesWithEveryOtherMemberInTurn) {
  EXPECT_EQ(rounds_of(Collective::alltoall, 3, 2, 7), (Rounds{{0, 1, 7}, {1, 0, 7}}));
}

TEST(GroupRounds, AGroupOfOneExchangesNothing) {
  for (Collective op : kAll) EXPECT_TRUE(group_rounds(op, 1, 0, 8).empty());
  EXPECT_TRUE(group_rounds(Collective::barrier, 4, 4, 0).empty());  // not a member
}

// Every message has its receive: what member m sends in round i, member
// `to` receives from m in its round i (the model pairs them by channel).
TEST(GroupRounds, EveryRoundsSendIsItsTargetsReceive) {
  for (Collective op : kAll) {
    for (int size = 2; size <= 9; ++size) {
      std::vector<std::vector<GroupRound>> all;
      for (int m = 0; m < size; ++m) all.push_back(group_rounds(op, size, m, 3));
      for (int m = 0; m < size; ++m) {
        for (std::size_t i = 0; i < all[static_cast<std::size_t>(m)].size(); ++i) {
          const GroupRound& sent = all[static_cast<std::size_t>(m)][i];
          const GroupRound& received = all[static_cast<std::size_t>(sent.to)][i];
          EXPECT_EQ(received.from, m) << model::collective_name(op) << " of " << size;
          EXPECT_EQ(received.bytes, sent.bytes);
          EXPECT_NE(sent.to, m);
        }
      }
    }
  }
}

// Members entering together leave after their rounds, each α + bytes·β:
// the cost the virtual clock charges the collective.
TEST(GroupRounds, TheRoundsCostWhatTheVirtualClockCharges) {
  const Link link{.latency_s = 50e-6, .bandwidth_Bps = 1e8};
  for (Collective op : kAll) {
    for (int size = 2; size <= 9; ++size) {
      double rounds_s = 0;
      for (const GroupRound& r : group_rounds(op, size, 0, 4096)) {
        rounds_s += link.latency_s + static_cast<double>(r.bytes) / link.bandwidth_Bps;
      }
      EXPECT_NEAR(rounds_s, collective_cost(op, size, 4096, link), 1e-12)
          << model::collective_name(op) << " of " << size;
    }
  }
}

}  // namespace
}  // namespace mheta::interpose
