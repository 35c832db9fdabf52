// Model::iteration_seconds_below, which GBS's refinements use: exact below
// the limit; otherwise at least the limit and, being the mean of a cycle of
// the iterations' max-plus system, never above the exact period. The
// workspace it leaves gives the next evaluation its exact time.
#include <gtest/gtest.h>

#include <random>

#include "model/model.hpp"
#include "search/synthetic_instance.hpp"

namespace mheta::search {
namespace {

std::vector<std::int64_t> random_distribution(std::int64_t total, int ranks, std::mt19937_64& random) {
  std::vector<double> weights;
  double sum = 0;
  for (int r = 0; r < ranks; ++r) {
    weights.push_back(std::uniform_real_distribution<double>(0.2, 1.0)(random));
    sum += weights.back();
  }
  std::vector<std::int64_t> rows;
  std::int64_t given = 0;
  for (int r = 0; r < ranks; ++r) {
    rows.push_back(r + 1 == ranks ? total - given
                                  : static_cast<std::int64_t>(total * weights[static_cast<std::size_t>(r)] / sum));
    given += rows.back();
  }
  return rows;
}

TEST(IterationBelow, ExactBelowTheLimitAndBetweenTheLimitAndThePeriodAbove) {
  std::mt19937_64 random(23);
  for (Pattern p : {Pattern::neighbour, Pattern::pipelined, Pattern::reduction}) {
    for (int trial = 0; trial < 4; ++trial) {
      const Instance i = random_instance(random, 9, 900, p);
      const model::Model m(i.profile, i.cluster);
      SCOPED_TRACE(i.description);
      model::Workspace reused(m);
      for (int k = 0; k < 100; ++k) {
        const std::vector<std::int64_t> rows = random_distribution(m.global_rows(), m.ranks(), random);
        model::Workspace fresh(m);
        const double exact = m.iteration_seconds(rows, fresh);
        const double limit = exact * std::uniform_real_distribution<double>(0.5, 1.5)(random);
        const double t = m.iteration_seconds_below(rows, reused, limit);
        if (exact < limit) {
          ASSERT_EQ(t, exact) << "step " << k << ", limit " << limit;
        } else {
          ASSERT_GE(t, limit) << "step " << k;
          ASSERT_LE(t, exact * (1 + 1e-12)) << "step " << k;
        }
        // The same workspace, right after, gives the exact time again.
        ASSERT_EQ(m.iteration_seconds(rows, reused), exact) << "step " << k;
      }
    }
  }
}

}  // namespace
}  // namespace mheta::search
