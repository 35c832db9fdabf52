// The collectives `mheta-microbench --profile` times: each call of the
// iteration once, at the largest bytes any rank gave it, as the model prices
// it (microbench/program_collectives.hpp).
#include "microbench/program_collectives.hpp"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace mheta::microbench {
namespace {

using model::Collective;

model::CommOp collective(Collective op, std::int64_t bytes) {
  return {.kind = model::CommKind::collective, .bytes = bytes, .collective = op};
}

// A profile whose rank r calls calls[r] in order, in one section.
model::Profile profile_of(const std::vector<std::vector<model::CommOp>>& calls) {
  model::Profile p;
  for (const auto& own : calls) {
    model::RankProfile rank;
    rank.sections.push_back(model::Section{{}, own});
    rank.sections.back().comm.push_back({.kind = model::CommKind::send, .peer = 0, .bytes = 64});  // not a collective
    p.ranks.push_back(std::move(rank));
  }
  return p;
}

TEST(ProgramCollectives, EachCallOnceAtTheLargestBytesAnyRankGaveIt) {
  // An allgatherv of unequal blocks (80 and 120 bytes), an allreduce of 8
  // twice (one point), a barrier.
  const model::Profile p = profile_of({
      {collective(Collective::allgather, 80), collective(Collective::allreduce, 8),
       collective(Collective::allreduce, 8), collective(Collective::barrier, 0)},
      {collective(Collective::allgather, 120), collective(Collective::allreduce, 8),
       collective(Collective::allreduce, 8), collective(Collective::barrier, 0)},
  });
  const std::vector<ProgramCollective> expected = {
      {Collective::barrier, 2, 0}, {Collective::allreduce, 2, 8}, {Collective::allgather, 2, 120}};
  EXPECT_EQ(program_collectives(p), expected);
}

TEST(ProgramCollectives, RanksThatDisagreeOnTheOrderGiveEveryRanksOwn) {
  const model::Profile p = profile_of({
      {collective(Collective::allreduce, 8)},
      {collective(Collective::bcast, 16), collective(Collective::allreduce, 32)},
      {collective(Collective::allreduce, 8)},
  });
  const std::vector<ProgramCollective> expected = {
      {Collective::bcast, 3, 16}, {Collective::allreduce, 3, 8}, {Collective::allreduce, 3, 32}};
  EXPECT_EQ(program_collectives(p), expected);
}

}  // namespace
}  // namespace mheta::microbench
