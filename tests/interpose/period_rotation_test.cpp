#include "interpose/period_rotation.hpp"

#include <gtest/gtest.h>

#include "interpose/timeline.hpp"
#include "tests/interpose/captured_periods.hpp"

namespace mheta::interpose {
namespace {

using testing::op;
using testing::shape_of;

// A period of: a receive (tag 5), 1 ms of compute, an Isend and a receive,
// the wait that completes the Isend, 2 ms of compute ending the period.
std::vector<model::Section> period_with_a_nonblocking_send() {
  Timeline t;
  model::CommOp isend = op(model::CommKind::send, 1, 0, 8);
  isend.nonblocking = true;
  t.add_comm(op(model::CommKind::recv, 1, 5, 8));
  t.add_compute(1e-3);
  const Timeline::CommRef sent = t.add_comm(isend);
  t.add_comm(op(model::CommKind::recv, 1, 0, 8));
  t.complete(sent, t.here());
  t.add_compute(2e-3);
  return t.sections();
}

TEST(RotatePeriod, TheStagesBeforeTheCutGoToTheEndAndTheCompletionFollowsItsSend) {
  const std::vector<model::Section> period = period_with_a_nonblocking_send();
  ASSERT_EQ(period.size(), 3u);  // [recv] [1 ms: isend recv] [2 ms]
  const std::vector<model::Section> rotated = rotate_period(period, 1);
  // [isend recv] [2 ms + recv] [1 ms]
  ASSERT_EQ(rotated.size(), 3u);
  EXPECT_EQ(rotated[0].comm.size(), 2u);
  EXPECT_EQ(rotated[0].stages.size(), 1u);
  EXPECT_DOUBLE_EQ(rotated[0].stages[0].compute_s, 0);
  EXPECT_TRUE(rotated[0].comm[0].nonblocking);
  EXPECT_EQ(rotated[0].comm[0].completed_section, 0);  // after the receive
  EXPECT_EQ(rotated[0].comm[0].completed_comm, 2);
  ASSERT_EQ(rotated[1].stages.size(), 1u);  // the captured first section's empty stage is gone
  EXPECT_DOUBLE_EQ(rotated[1].stages[0].compute_s, 2e-3);
  EXPECT_EQ(rotated[1].comm[0].tag, 5);
  EXPECT_DOUBLE_EQ(rotated[2].stages[0].compute_s, 1e-3);
  EXPECT_TRUE(rotated[2].comm.empty());
  EXPECT_EQ(shape_of(rotate_period(period, 0)), shape_of(period));
}

// Cut between the Isend and the wait that completes it: the completion is
// in the next period.
TEST(RotatePeriod, ACompletionTheRotationPutsBeforeItsSendIsInTheNextPeriod) {
  const std::vector<model::Section> rotated = rotate_period(period_with_a_nonblocking_send(), 2);
  // [recv] [2 ms + recv tag 5] [1 ms: isend]
  ASSERT_EQ(rotated.size(), 3u);
  ASSERT_EQ(rotated[2].comm.size(), 1u);
  EXPECT_TRUE(rotated[2].comm[0].nonblocking);
  EXPECT_EQ(rotated[2].comm[0].completed_section, -1);
}

// A non-blocking collective's completion moves with the rotation as a
// send's does: a period of an MPI_Iallreduce, 1 ms of compute beside it, a
// receive, the wait, 2 ms; cut at the receive.
TEST(RotatePeriod, ANonblockingCollectivesCompletionFollowsIt) {
  Timeline t;
  model::CommOp sums;
  sums.kind = model::CommKind::collective;
  sums.collective = model::Collective::allreduce;
  sums.nonblocking = true;
  const Timeline::CommRef posted = t.add_comm(sums);
  t.add_compute(1e-3);
  t.add_comm(op(model::CommKind::recv, 1, 0, 8));
  t.complete(posted, t.here());
  t.add_compute(2e-3);
  const std::vector<model::Section> rotated = rotate_period(t.sections(), 1);
  // [recv] [2 ms + iallreduce] [1 ms]: its wait is now in the next period.
  ASSERT_EQ(rotated.size(), 3u);
  ASSERT_EQ(rotated[1].comm.size(), 1u);
  EXPECT_EQ(rotated[1].comm[0].kind, model::CommKind::collective);
  EXPECT_EQ(rotated[1].comm[0].completed_section, -1);
  // Cut nowhere: completed after the receive, as captured.
  const std::vector<model::Section> same = rotate_period(t.sections(), 0);
  EXPECT_EQ(same[0].comm[0].completed_section, 1);
  EXPECT_EQ(same[0].comm[0].completed_comm, 1);
}

}  // namespace
}  // namespace mheta::interpose
