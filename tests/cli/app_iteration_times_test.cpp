// How `mheta validate` reads an app's measured time per iteration.
#include "cli/app_iteration_times.hpp"

#include <gtest/gtest.h>

#include <string>

#include "model/format_error.hpp"

namespace mheta::cli {
namespace {

std::string iteration(int k, double s) {
  return R"({"mheta":"iteration","index":)" + std::to_string(k) + R"(,"seconds":)" + std::to_string(s) + "}\n";
}

TEST(SteadyState, WithoutRankLinesIsTheMedianOfTheIterationsAfterTheFirst) {
  const std::string out = iteration(0, 9.0) + iteration(1, 7.0) + iteration(2, 2.0) + iteration(3, 3.0);
  const AppIterationTimes t = parse_app_output(out, "out");
  EXPECT_TRUE(t.rank_seconds.empty());
  EXPECT_DOUBLE_EQ(steady_state_seconds(t, "out"), 3.0);
  // An even count takes the middle two.
  EXPECT_DOUBLE_EQ(steady_state_seconds(parse_app_output(out + iteration(4, 4.0), "out"), "out"), 3.5);
}

TEST(SteadyState, WithRankLinesIsTheSlowestRanksMedianNotTheSlowestOfEachIteration) {
  // Two ranks whose jitter alternates: each iteration's slowest is 3 s, yet
  // rank 0's typical iteration after the first is 1 s and rank 1's 1.5 s.
  const std::string out =
      iteration(0, 9.0) + iteration(1, 3.0) + iteration(2, 3.0) + iteration(3, 3.0) +
      R"({"mheta":"rank","rank":0,"rows":4,"iterations":[{"seconds":9},{"seconds":1},{"seconds":3},{"seconds":1}]})"
      "\n"
      R"({"mheta":"rank","rank":1,"rows":4,"iterations":[{"seconds":8},{"seconds":3},{"seconds":1.5},{"seconds":1.5}]})"
      "\n";
  const AppIterationTimes t = parse_app_output(out, "out");
  ASSERT_EQ(t.rank_seconds.size(), 2u);
  EXPECT_DOUBLE_EQ(steady_state_seconds(t, "out"), 1.5);
}

TEST(SteadyState, RankLinesMissingIterationsFallBackToTheIterationLines) {
  const std::string out = iteration(0, 5.0) + iteration(1, 4.0) +
                          R"({"mheta":"rank","rank":0,"iterations":[{"seconds":5}]})"
                          "\n";
  EXPECT_DOUBLE_EQ(steady_state_seconds(parse_app_output(out, "out"), "out"), 4.0);
}

TEST(SteadyState, AMalformedRankLineNamesTheSourceAndLine) {
  const std::string out = iteration(0, 1.0) + R"({"mheta":"rank","rank":0,"iterations":[{"secs":1}]})" "\n";
  try {
    parse_app_output(out, "logs/00.out");
    FAIL() << "accepted a rank line without seconds";
  } catch (const model::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("logs/00.out"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("line 2"), std::string::npos) << e.what();
  }
}

TEST(SteadyState, NoIterationLineIsAnError) {
  EXPECT_THROW(steady_state_seconds(parse_app_output("hello\n", "out"), "out"), model::FormatError);
}

}  // namespace
}  // namespace mheta::cli
