// A synchronous send (CommOp::synchronous): its completion also waits until
// its receiver has reached the receive and the message has arrived there
// (docs/model.md, "Collectives over a group"). The capture records the
// rounds of a collective over some but not all ranks so, and the last
// member to enter one then leaves at its entry plus the rounds' cost, as
// the virtual clock holds it; with plain non-blocking sends it left as
// soon as its bytes had left, a latency a round early. By hand, on a
// cluster without overheads (o = O<- = 0): a round's message leaves after
// its gap g = q beta and arrives alpha later, c = g + alpha.
#include <gtest/gtest.h>

#include <vector>

#include "model/model.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

using testing::compute_stage;
using testing::recv_from;
using testing::send_to;
using namespace testing::message_costs;

constexpr double kGap = kBeta * kBytes;   // g: 1 ms
constexpr double kRound = kGap + kAlpha;  // c: 2 ms
constexpr double kLate = 0.05;            // the last member's compute before the collective

// Member `me` of a dissemination over `size` ranks (group_collective.hpp):
// each round a non-blocking send to me + 2^k, the receive from me - 2^k, and
// the send's completion, in section 1 after `compute`; section 2 is where
// the last round's send completes.
Profile dissemination(int size, int late, bool synchronous) {
  Profile p = testing::empty_profile({});
  p.distribution.rows.assign(static_cast<std::size_t>(size), 100);
  p.ranks.resize(static_cast<std::size_t>(size));
  for (int me = 0; me < size; ++me) {
    std::vector<CommOp> comm;
    int round = 0;
    for (int offset = 1; offset < size; offset *= 2, ++round) {
      CommOp send = send_to((me + offset) % size, kBytes, round);
      send.nonblocking = true;
      send.synchronous = synchronous;
      // Completed after the round's receive: before the next round's send,
      // or after the last operation.
      send.completed_section = 0;
      send.completed_comm = 2 * round + 2;
      comm.push_back(send);
      comm.push_back(recv_from((me - offset + size) % size, kBytes, round));
    }
    auto& rank = p.ranks[static_cast<std::size_t>(me)];
    rank.sections.push_back(Section{{compute_stage(me == late ? kLate : 0.001)}, comm});
  }
  return p;
}

Prediction replay(const Profile& p, int ranks) {
  return Model(p, testing::uniform_cluster(ranks, 0, 0, kAlpha, kBeta))
      .first_iteration(std::vector<std::int64_t>(static_cast<std::size_t>(ranks), 100));
}

// Two members: the late one sends at kLate; its message arrives c later,
// and so it leaves then, as its partner does.
TEST(SynchronousSend, TheLastOfTwoLeavesWhenItsMessageHasArrived) {
  const Prediction p = replay(dissemination(2, 1, true), 2);
  EXPECT_DOUBLE_EQ(p.ranks[1].total_s, kLate + kRound);
  EXPECT_DOUBLE_EQ(p.ranks[0].total_s, kLate + kRound);
  EXPECT_DOUBLE_EQ(p.ranks[1].wait_s, kAlpha);  // its handshake: from the bytes' leaving to their arrival
  // Not synchronous: the late member left once its bytes had, alpha early.
  const Prediction plain = replay(dissemination(2, 1, false), 2);
  EXPECT_DOUBLE_EQ(plain.ranks[1].total_s, kLate + kGap);
  EXPECT_DOUBLE_EQ(plain.ranks[0].total_s, kLate + kRound);
}

// Four members, member 3 the last: two rounds (offsets 1, 2). Worked by
// hand in the order the rounds run: member 3 posts at T = kLate; round 0
// ends T + c for 0 and 3 (the message from 3 and to 0), T for 2 (3 reached
// its receive then), c for 1; round 1 ends T + 2c for every member, the
// latest entry plus the virtual clock's 2 (alpha + q beta).
TEST(SynchronousSend, EveryMemberOfFourLeavesAtTheLatestEntryPlusTheCost) {
  const Prediction p = replay(dissemination(4, 3, true), 4);
  for (int r = 0; r < 4; ++r) EXPECT_DOUBLE_EQ(p.ranks[static_cast<std::size_t>(r)].total_s, kLate + 2 * kRound) << r;
  // Plain: member 3 left at T + 2g (its receives had long arrived).
  const Prediction plain = replay(dissemination(4, 3, false), 4);
  EXPECT_DOUBLE_EQ(plain.ranks[3].total_s, kLate + 2 * kGap);
}

// The search evaluates distributions on a tape re-weighted for the rows
// (model/replay.cpp, reweight_rank): the handshake's maxima must give what
// a replay of the same rows gives, whichever rows the tape was made for.
TEST(SynchronousSend, TheReweightedTapeGivesTheReplaysTimes) {
  const Profile p = dissemination(4, 3, true);
  const Model model(p, testing::uniform_cluster(4, 0, 0, kAlpha, kBeta));
  const std::vector<std::int64_t> captured{100, 100, 100, 100};
  const std::vector<std::int64_t> other{70, 200, 100, 30};
  Workspace fresh(model);
  const double expected = model.iteration_seconds(other, fresh);
  Workspace reused(model);
  model.iteration_seconds(captured, reused);
  EXPECT_DOUBLE_EQ(model.iteration_seconds(other, reused), expected);
  // Member 3's compute follows its rows (30 of the captured 100): it is
  // still the last, and one iteration's pace is its compute plus 2 c.
  EXPECT_DOUBLE_EQ(model.predict(other).iteration_s, kLate * 0.3 + 2 * kRound);
}

// Two pairs that never meet, 0 with 2 and 1 with 3 (two coupled codes' ranks
// exchanging across their halves): each rank computes kFast, swaps one
// synchronous message with its partner, and computes again, rank 1 kLate
// and the others kFast. Each pair goes at its own pace: 1 and 3 at
// kFast + c + kLate (3 waits for 1 at every exchange), 0 and 2 at
// 2 kFast + c. The steady iteration starts each rank's clock at its bias,
// below 0 for rank 3, which waits: a receive reached at a negative time
// is still reached (it was taken for "not yet", and the replay reported a
// deadlock).
TEST(SynchronousSend, PairsAtTheirOwnPaceWhoseClocksStartBelowZero) {
  constexpr double kFast = 0.001;
  Profile p = testing::empty_profile({});
  p.distribution.rows.assign(4, 100);
  p.ranks.resize(4);
  for (int me = 0; me < 4; ++me) {
    const int partner = (me + 2) % 4;
    CommOp send = send_to(partner, kBytes, 0);
    send.nonblocking = true;
    send.synchronous = true;
    send.completed_section = 0;
    send.completed_comm = 2;
    auto& sections = p.ranks[static_cast<std::size_t>(me)].sections;
    sections.push_back(Section{{compute_stage(kFast)}, {send, recv_from(partner, kBytes, 0)}});
    sections.push_back(Section{{compute_stage(me == 1 ? kLate : kFast)}, {}});
  }
  const Model model(p, testing::uniform_cluster(4, 0, 0, kAlpha, kBeta));
  const Prediction prediction = model.predict(std::vector<std::int64_t>(4, 100));
  // Paces are differences of clocks many iterations on: equal to 1e-12 s.
  const double slow = kFast + kRound + kLate;
  const double fast = 2 * kFast + kRound;
  EXPECT_NEAR(prediction.iteration_s, slow, 1e-12);
  EXPECT_NEAR(prediction.ranks[1].total_s, slow, 1e-12);
  EXPECT_NEAR(prediction.ranks[3].total_s, slow, 1e-12);
  EXPECT_NEAR(prediction.ranks[0].total_s, fast, 1e-12);
  EXPECT_NEAR(prediction.ranks[2].total_s, fast, 1e-12);
}

}  // namespace
}  // namespace mheta::model
