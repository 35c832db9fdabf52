#include "interpose/step_tags.hpp"

#include <gtest/gtest.h>

#include "interpose/period_alignment.hpp"
#include "model/cluster.hpp"
#include "model/model.hpp"
#include "tests/interpose/captured_periods.hpp"

namespace mheta::interpose {
namespace {

using testing::captured;
using testing::op;
using testing::profile_of;
using testing::shape_of;
using testing::Step;
using testing::uniform_cluster;

// A chain of `ranks`: each sends its edge to both neighbours and receives
// theirs, tag `base` (+ the step number, as the program tags them), after
// computing for 1 ms plus 0.5 ms a rank.
Step chain_step(int rank, int ranks, int base) {
  Step s{1e-3 + 5e-4 * rank, {}};
  for (model::CommKind kind : {model::CommKind::send, model::CommKind::recv}) {
    for (int peer : {rank - 1, rank + 1}) {
      if (peer >= 0 && peer < ranks) s.ops.push_back(op(kind, peer, base, 8));
    }
  }
  return s;
}

// The ranks captured steps 40, 41, 43 and 40 of a chain whose tags are the
// step number: no receive has its send's tag, and the profile cannot be
// replayed. Moved back, the tags pair up, and the prediction is that of
// periods captured at one step.
TEST(StepTags, RanksThatCapturedDifferentStepsPairUp) {
  constexpr int kRanks = 4;
  const int at[kRanks] = {40, 41, 43, 40};
  std::vector<RankRecord> records, one_step;
  for (int r = 0; r < kRanks; ++r) {
    records.push_back(captured(r, chain_step(r, kRanks, 0), at[r], 0, 1));
    one_step.push_back(captured(r, chain_step(r, kRanks, 0), 40, 0, 1));
  }
  const auto problem = iterations_misfit(profile_of(records));
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("tag"), std::string::npos) << *problem;

  // 1->0 by 1, 0->1 by -1, 2->1 by -2, 1->2 by 2, 3->2 by -3, 2->3 by 3.
  EXPECT_EQ(pair_step_tags(records), 6);
  EXPECT_TRUE(align_periods(records).aligned);
  EXPECT_FALSE(iterations_misfit(profile_of(records)));
  const std::vector<std::int64_t> rows(kRanks, 1);
  const model::Model expected(profile_of(one_step), uniform_cluster(kRanks));
  const model::Model paired(profile_of(records), uniform_cluster(kRanks));
  EXPECT_DOUBLE_EQ(paired.predict(rows).iteration_s, expected.predict(rows).iteration_s);
  // Rank 3's compute: its neighbour's message left 0.5 ms before it needs it.
  EXPECT_DOUBLE_EQ(paired.predict(rows).iteration_s, 2.5e-3);
}

// Tags that never change, or periods that already hold the same tags, are
// left alone; so are tags that are not one set moved (different messages).
TEST(StepTags, TagsThatAlreadyPairOrDifferOtherwiseStay) {
  std::vector<RankRecord> same = {captured(0, chain_step(0, 2, 7), 3, 0), captured(1, chain_step(1, 2, 7), 9, 0)};
  const auto before = shape_of(same[1].sections);
  EXPECT_EQ(pair_step_tags(same), 0);
  EXPECT_EQ(shape_of(same[1].sections), before);

  std::vector<RankRecord> aligned = {captured(0, chain_step(0, 2, 0), 5, 0, 1), captured(1, chain_step(1, 2, 0), 5, 0, 1)};
  EXPECT_EQ(pair_step_tags(aligned), 0);

  // Rank 1 receives two tags 3 apart where rank 0 sends two 1 apart.
  Step two{1e-3, {op(model::CommKind::send, 1, 1, 8), op(model::CommKind::send, 1, 2, 8)}};
  Step other{1e-3, {op(model::CommKind::recv, 0, 4, 8), op(model::CommKind::recv, 0, 7, 8)}};
  std::vector<RankRecord> different = {captured(0, two, 2, 0), captured(1, other, 2, 0)};
  EXPECT_EQ(pair_step_tags(different), 0);
}

}  // namespace
}  // namespace mheta::interpose
