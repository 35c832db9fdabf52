#include "search/baselines.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "search/method.hpp"
#include "tests/search/instances.hpp"

namespace mheta::search {
namespace {

TEST(Exhaustive, CountsCompositions) {
  EXPECT_DOUBLE_EQ(exhaustive_count(2, 10), 11);
  EXPECT_DOUBLE_EQ(exhaustive_count(3, 4), 15);
}

TEST(Exhaustive, AtGrainOneRowItIsTheTrueOptimum) {
  std::mt19937_64 random(3);
  const Instance i = random_instance(random, 3, 60, Pattern::neighbour);
  const model::Model m(i.profile, i.cluster);
  SearchOptions o;
  o.grain = 60;
  const SearchResult r = run_search(m, i.cluster, "exhaustive", o);
  EXPECT_EQ(r.evaluations, 61 * 62 / 2);
  // Brute force, independently.
  model::Workspace ws(m);
  double best = std::numeric_limits<double>::infinity();
  for (std::int64_t a = 0; a <= 60; ++a) {
    for (std::int64_t b = 0; a + b <= 60; ++b) {
      const std::vector<std::int64_t> rows{a, b, 60 - a - b};
      best = std::min(best, m.iteration_seconds(rows, ws));
    }
  }
  EXPECT_DOUBLE_EQ(r.iteration_s, best);
}

TEST(Baselines, StayInBoundsAndRepeatWithTheSameSeed) {
  std::mt19937_64 random(5);
  const Instance i = random_instance(random, 4, 400, Pattern::pipelined);
  const model::Model m(i.profile, i.cluster);
  for (const char* method : {"random", "anneal", "genetic"}) {
    SearchOptions o;
    o.budget = 300;
    o.min_rows = 10;
    o.seed = 11;
    const SearchResult a = run_search(m, i.cluster, method, o);
    const SearchResult b = run_search(m, i.cluster, method, o);
    EXPECT_EQ(a.dist, b.dist) << method;
    EXPECT_EQ(a.dist.total_rows(), 400) << method;
    for (std::int64_t r : a.dist.rows) EXPECT_GE(r, 10) << method;
    EXPECT_LE(a.evaluations, 301) << method;
    model::Workspace ws(m);
    EXPECT_DOUBLE_EQ(a.iteration_s, m.iteration_seconds(a.dist.rows, ws)) << method;
  }
}

TEST(Baselines, UnknownMethodIsNamed) {
  const Instance i = testing::compute_only({1e-4, 1e-4}, 10);
  const model::Model m(i.profile, i.cluster);
  try {
    run_search(m, i.cluster, "hill-climb", {});
    FAIL();
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("gbs|prophet"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mheta::search
