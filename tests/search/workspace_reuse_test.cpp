// The model keeps each rank's costs (and, in pipelines, its own time) in the
// workspace between evaluations, and the matchings of the last sets of
// empty ranks. A search's sequence of distributions must give exactly the
// times a fresh workspace gives.
#include <gtest/gtest.h>

#include <random>

#include "model/model.hpp"
#include "search/synthetic_instance.hpp"

namespace mheta::search {
namespace {

// A random move of a few rows or all of a rank's, to its neighbour or to
// any rank, emptying ranks and filling them again, as GBS and the
// baselines move.
std::vector<std::int64_t> random_move(std::vector<std::int64_t> rows, std::mt19937_64& random) {
  const int n = static_cast<int>(rows.size());
  std::uniform_int_distribution<int> rank(0, n - 1);
  const int from = rank(random);
  const int to = random() % 3 == 0 ? std::min(n - 1, from + 1) : rank(random);
  const auto f = static_cast<std::size_t>(from);
  const std::int64_t amount = random() % 4 == 0 ? rows[f] : std::min<std::int64_t>(rows[f], random() % 40);
  rows[f] -= amount;
  rows[static_cast<std::size_t>(to)] += amount;
  return rows;
}

void expect_reuse_is_exact(const model::Model& model, std::mt19937_64& random) {
  std::vector<std::int64_t> rows = model.instrumented_rows();
  model::Workspace reused(model);
  for (int k = 0; k < 400; ++k) {
    const std::vector<std::int64_t> next = random_move(rows, random);
    model::Workspace fresh(model);
    const double expected = model.iteration_seconds(next, fresh);
    // Both ways a search evaluates: the time alone, or with the breakdown.
    const double t = k % 5 == 0 ? model.predict(next, reused).iteration_s : model.iteration_seconds(next, reused);
    ASSERT_EQ(t, expected) << "step " << k;
    // Keep most moves, so the distributions wander; go back on some.
    if (random() % 4 != 0) rows = next;
  }
}

TEST(WorkspaceReuse, EveryPatternGivesTheTimesOfAFreshWorkspace) {
  std::mt19937_64 random(11);
  for (Pattern p : {Pattern::neighbour, Pattern::pipelined, Pattern::reduction}) {
    for (int trial = 0; trial < 4; ++trial) {
      const Instance i = random_instance(random, 9, 900, p);
      const model::Model m(i.profile, i.cluster);
      SCOPED_TRACE(i.description);
      expect_reuse_is_exact(m, random);
    }
  }
}

// The neighbour exchange with its sends non-blocking, after an allgather of
// the rows' data, and completed after a second sweep: an iteration that
// does not end in a collective (so its max-plus form is recorded and
// re-weighted), with a collective in it whose cost follows the rows, and
// completions that wait for the link or for the sweep, as the rows say.
Instance with_nonblocking_sends_after_a_gather(Instance i) {
  auto& collectives = i.cluster.network.collectives;
  collectives[static_cast<std::size_t>(model::Collective::allgather)] =
      collectives[static_cast<std::size_t>(model::Collective::allreduce)];
  for (std::size_t r = 0; r < i.profile.ranks.size(); ++r) {
    model::Section& s = i.profile.ranks[r].sections.front();
    model::CommOp gather;
    gather.kind = model::CommKind::collective;
    gather.collective = model::Collective::allgather;
    gather.bytes = 8 * i.profile.distribution.rows[r];
    s.comm.insert(s.comm.begin(), gather);
    for (model::CommOp& op : s.comm) {
      if (op.kind != model::CommKind::send) continue;
      op.nonblocking = true;
      op.completed_section = 1;
      op.completed_comm = 0;
    }
    model::Section sweep;
    sweep.stages = s.stages;
    i.profile.ranks[r].sections.push_back(sweep);
  }
  return i;
}

TEST(WorkspaceReuse, NonblockingSendsAndAGatherOfTheRows) {
  std::mt19937_64 random(23);
  for (int trial = 0; trial < 4; ++trial) {
    const Instance i = with_nonblocking_sends_after_a_gather(random_instance(random, 9, 900, Pattern::neighbour));
    const model::Model m(i.profile, i.cluster);
    SCOPED_TRACE(i.description);
    expect_reuse_is_exact(m, random);
  }
}

TEST(WorkspaceReuse, RowWeightsMoveTheWorkOfTheRanksBetween) {
  // With weights, moving rows from rank a to rank b changes the work of
  // every rank between them, not only theirs.
  std::mt19937_64 random(5);
  for (Pattern p : {Pattern::pipelined, Pattern::neighbour}) {
    Instance i = random_instance(random, 7, 700, p);
    std::uniform_real_distribution<double> weight(0.1, 3.0);
    for (int r = 0; r < 700; ++r) i.profile.row_weights.push_back(weight(random));
    const model::Model m(i.profile, i.cluster);
    expect_reuse_is_exact(m, random);
  }
}

}  // namespace
}  // namespace mheta::search
