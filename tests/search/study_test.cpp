#include "search/study.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace mheta::search {
namespace {

// A small version of the 500-instance study (bench_search --study=500,
// recorded in docs/results.md): GBS against the exhaustive optimum.
TEST(Study, GbsIsWithinOnePercentOfTheOptimumAlmostAlways) {
  StudyOptions o;
  o.instances = 30;
  o.seed = 2024;
  o.exhaustive_budget = 5000;
  o.baseline_budget = 300;
  const StudyReport report = run_study(o);
  ASSERT_FALSE(report.methods.empty());
  const MethodStats& gbs = report.methods.front();
  ASSERT_EQ(gbs.method, "gbs");
  EXPECT_GE(gbs.within_1_percent, 28) << "of 30";
  EXPECT_EQ(gbs.within_5_percent, 30);
  std::ostringstream out;
  print_study(out, report);
  EXPECT_NE(out.str().find("prophet-h2"), std::string::npos);
}

}  // namespace
}  // namespace mheta::search
