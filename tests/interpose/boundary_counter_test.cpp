// The run's iteration count settled at its end (boundary_counter.hpp): the
// records cut by the count during the run are renumbered only where it kept
// its function and stride.
#include "interpose/boundary_counter.hpp"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace mheta::interpose
