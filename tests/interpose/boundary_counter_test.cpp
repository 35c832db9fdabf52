// The run's iteration count settled at its end (boundary_counter.hpp): the
// records cut by the count during the run are renumbered only where it kept
// its function and stride.
#include "interpose/boundary_counter.hpp"

#include <gtest/gtest.h>

#include "interpose/engaged.hpp"

namespace mheta::interpose {
namespace {

void call(Fn fn, int times) {
  for (int i = 0; i < times; ++i) count_boundary_call(fn);
}

TEST(BoundaryCounter, SettledOverTheWholeRunWithTheSameFunctionRenumbers) {
  // A loop counted from its own 15 iterations (45 calls, 3 an iteration),
  // then 37 more; the run's 216 calls say 72.
  count_boundaries(Fn::Sendrecv, 3, 45);
  call(Fn::Sendrecv, 111);
  EXPECT_EQ(boundaries_counted(), 52);
  settle_boundaries(Fn::Sendrecv, 3, 216);
  EXPECT_EQ(boundaries_counted(), 72);
  EXPECT_EQ(boundaries_renumbered(), 20);
}

TEST(BoundaryCounter, SettledBackToTheLoopsOwnCountRenumbersBackwards) {
  count_boundaries(Fn::Allreduce, 2, 10);
  call(Fn::Allreduce, 20);
  settle_boundaries(Fn::Allreduce, 2, 24);
  EXPECT_EQ(boundaries_counted(), 12);
  EXPECT_EQ(boundaries_renumbered(), -3);
}

TEST(BoundaryCounter, SettledByAnotherFunctionOrStrideRenumbersNothing) {
  count_boundaries(Fn::Allreduce, 3, 30);
  call(Fn::Allreduce, 30);
  const std::int64_t generation = boundary_generation();
  settle_boundaries(Fn::Sendrecv, 3, 90);
  EXPECT_EQ(boundaries_counted(), 30);
  EXPECT_EQ(boundaries_renumbered(), 0);
  EXPECT_NE(boundary_generation(), generation);
  settle_boundaries(Fn::Sendrecv, 2, 90);
  EXPECT_EQ(boundaries_counted(), 45);
  EXPECT_EQ(boundaries_renumbered(), 0);
}


// The accounting service, sampling, lets the wrappers idle until the call
// that ends the iteration before its next sample. Detection concluding
// counts the same loop again from the detector's count: the wake stays.
// Before, it was dropped and the records stopped there.
TEST(BoundaryCounter, AWakeOutlastsTheLoopCountedAgain) {
  count_boundaries(Fn::Barrier, 1, 4);
  call(Fn::Barrier, 6);  // iteration 10
  wake_at_iteration(14);
  count_boundaries(Fn::Barrier, 1, 10);  // concluded: the same count
  g_engaged.store(false);
  call(Fn::Barrier, 3);
  EXPECT_FALSE(engaged());
  call(Fn::Barrier, 1);  // iteration 14 ends
  EXPECT_TRUE(engaged());
  EXPECT_EQ(boundaries_counted(), 14);
  wake_at_iteration(-1);
}

// Counted by another function, the next counted call wakes the service,
// which starts its records afresh; with no wake asked for, none comes.
TEST(BoundaryCounter, AnotherLoopCountedWakesAtItsNextCall) {
  count_boundaries(Fn::Barrier, 1, 0);
  wake_at_iteration(20);
  count_boundaries(Fn::Allreduce, 2, 8);
  g_engaged.store(false);
  call(Fn::Allreduce, 1);
  EXPECT_TRUE(engaged());
  wake_at_iteration(-1);
  count_boundaries(Fn::Sendrecv, 1, 0);
  g_engaged.store(false);
  call(Fn::Sendrecv, 50);
  EXPECT_FALSE(engaged());
}

}  // namespace
}  // namespace mheta::interpose
