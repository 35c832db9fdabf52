// The one rule that moves the capture along at the end of an iteration, for
// every way of telling iterations apart (marks, the k-th named call).
#include "interpose/capture_boundary.hpp"

#include <gtest/gtest.h>

namespace mheta::interpose {
namespace {

TEST(CaptureBoundary, SecondIterationIsForcedFromTheStartAndCapturedBetweenTheFirstTwoEnds) {
  EXPECT_EQ(step_at_iteration_end(0, 2, Phase::waiting), BoundaryStep::near);
  EXPECT_EQ(step_at_iteration_end(1, 2, Phase::waiting), BoundaryStep::begin);
  EXPECT_EQ(step_at_iteration_end(2, 2, Phase::capturing), BoundaryStep::end);
  EXPECT_EQ(step_at_iteration_end(3, 2, Phase::done), BoundaryStep::none);
}

TEST(CaptureBoundary, FirstIterationIsCapturedFromTheStart) {
  EXPECT_EQ(step_at_iteration_end(0, 1, Phase::waiting), BoundaryStep::begin);
  EXPECT_EQ(step_at_iteration_end(1, 1, Phase::capturing), BoundaryStep::end);
}

TEST(CaptureBoundary, LaterIterationIsForcedOneIterationEarly) {
  EXPECT_EQ(step_at_iteration_end(0, 6, Phase::waiting), BoundaryStep::none);
  EXPECT_EQ(step_at_iteration_end(3, 6, Phase::waiting), BoundaryStep::none);
  EXPECT_EQ(step_at_iteration_end(4, 6, Phase::waiting), BoundaryStep::near);
  EXPECT_EQ(step_at_iteration_end(5, 6, Phase::waiting), BoundaryStep::begin);
  EXPECT_EQ(step_at_iteration_end(6, 6, Phase::capturing), BoundaryStep::end);
}

TEST(CaptureBoundary, NoStepOutOfPhase) {
  // A capture that already began (pcontrol) or ended is not begun or ended twice.
  EXPECT_EQ(step_at_iteration_end(5, 6, Phase::capturing), BoundaryStep::none);
  EXPECT_EQ(step_at_iteration_end(6, 6, Phase::waiting), BoundaryStep::none);
  EXPECT_EQ(step_at_iteration_end(6, 6, Phase::done), BoundaryStep::none);
  EXPECT_EQ(step_at_iteration_end(5, 6, Phase::done), BoundaryStep::none);
}

}  // namespace
}  // namespace mheta::interpose
