// A pipeline (every message to a higher rank, no collective) repeats its
// iterations overlapped: a rank starts the next one while the ranks after it
// still work on this one. Its iteration is the busiest rank's own time (the
// period of the unrolled replay, docs/model.md "Pipelines: the steady
// state"); the replay from a common start is its first iteration.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "model/model.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

using namespace testing;
using namespace testing::message_costs;

constexpr int kRanks = 3;
constexpr int kTiles = 3;
// Rank 1 is the busiest: 0.11 s of compute against 0.06 and 0.04.
constexpr double kTile[kRanks][kTiles] = {{0.02, 0.03, 0.01}, {0.04, 0.02, 0.05}, {0.01, 0.01, 0.02}};

// Rank r receives tile j from r-1, computes it, sends it to r+1.
Profile wavefront() {
  Profile p = testing::empty_profile({10, 10, 10});
  p.iterations = 50;
  for (int r = 0; r < kRanks; ++r) {
    auto& sections = p.ranks[static_cast<std::size_t>(r)].sections;
    for (int j = 0; j < kTiles; ++j) {
      Section s;
      if (r > 0) s.comm.push_back(recv_from(r - 1, kBytes));
      sections.push_back(s);
      Section work{{compute_stage(kTile[r][j])}, {}};
      if (r + 1 < kRanks) work.comm.push_back(send_to(r + 1, kBytes));
      sections.push_back(work);
    }
  }
  return p;
}

Model wavefront_model() { return Model(wavefront(), testing::uniform_cluster(kRanks, kSend, kRecv, kAlpha, kBeta)); }

// Each rank's own time: its tiles scaled to its rows, O-> per tile sent on
// and O<- per tile received.
double own_seconds(int r, double scale) {
  double compute = 0;
  for (double t : kTile[r]) compute += t;
  return compute * scale + (r + 1 < kRanks ? kTiles * kSendQ : 0) + (r > 0 ? kTiles * kRecv : 0);
}

TEST(PipelineSteadyState, TheIterationIsTheBusiestRanksOwnTime) {
  const Model model = wavefront_model();
  ASSERT_TRUE(model.pipelined());
  const Prediction p = model.predict(std::vector<std::int64_t>{10, 10, 10});
  const double pace = own_seconds(1, 1.0);
  EXPECT_NEAR(p.iteration_s, pace, 1e-12);
  EXPECT_EQ(p.slowest_rank, 1);
  // Rank 0 runs ahead at its own pace (its sends are eager); rank 2
  // follows rank 1, waiting the difference.
  const double paces[kRanks] = {own_seconds(0, 1.0), pace, pace};
  for (int r = 0; r < kRanks; ++r) {
    const RankBreakdown& b = p.ranks[static_cast<std::size_t>(r)];
    EXPECT_NEAR(b.compute_s + b.io_s + b.comm_s, own_seconds(r, 1.0), 1e-12) << "rank " << r;
    EXPECT_NEAR(b.wait_s, paces[r] - own_seconds(r, 1.0), 1e-12) << "rank " << r;
    EXPECT_NEAR(b.total_s, paces[r], 1e-12) << "rank " << r;
  }
  EXPECT_EQ(p.ranks[0].wait_s, 0.0);
  // The first iteration: the wavefront recurrence from a common start (Eq 4
  // at every stage), which adds the fill to the pace.
  double finish[kRanks][kTiles];
  for (int r = 0; r < kRanks; ++r) {
    double clock = 0;
    for (int j = 0; j < kTiles; ++j) {
      if (r > 0) clock = std::max(clock, finish[r - 1][j] + kTransfer) + kRecv;
      clock += kTile[r][j];
      if (r + 1 < kRanks) clock += kSendQ;
      finish[r][j] = clock;
    }
  }
  const double first = finish[kRanks - 1][kTiles - 1];
  EXPECT_NEAR(p.first_iteration_s, first, 1e-12);
  EXPECT_GT(p.first_iteration_s, p.iteration_s);
  EXPECT_NEAR(p.run_s, first + 49 * pace, 1e-9);
  EXPECT_EQ(model.first_iteration(std::vector<std::int64_t>{10, 10, 10}).ranks[2].total_s, p.first_iteration_s);
}

TEST(PipelineSteadyState, TheBusiestRankMovesWithTheRows) {
  const Model model = wavefront_model();
  Workspace ws(model);
  // Rank 2 with 20 of 30 rows: 0.04 * 2 s of compute, the busiest now.
  const std::vector<std::int64_t> rows{5, 5, 20};
  const double pace = std::max({own_seconds(0, 0.5), own_seconds(1, 0.5), own_seconds(2, 2.0)});
  EXPECT_NEAR(pace, own_seconds(2, 2.0), 1e-15);
  EXPECT_NEAR(model.iteration_seconds(rows, ws), pace, 1e-12);
  const Prediction p = model.predict(rows, ws);
  EXPECT_EQ(p.iteration_s, model.iteration_seconds(rows, ws));
  EXPECT_EQ(p.slowest_rank, 2);
}

TEST(PipelineSteadyState, RanksWithoutRowsAreSkipped) {
  const Model model = wavefront_model();
  Workspace ws(model);
  // Rank 1 empty: rank 0 sends to rank 2, which receives from rank 0.
  const std::vector<std::int64_t> middle_empty{15, 0, 15};
  const double middle_pace = std::max(own_seconds(0, 1.5), own_seconds(2, 1.5));
  // Rank 2 empty: rank 1's sends go nowhere and cost nothing.
  const std::vector<std::int64_t> last_empty{15, 15, 0};
  const double last_pace = std::max(own_seconds(0, 1.5), 0.11 * 1.5 + kTiles * kRecv);
  for (int round = 0; round < 2; ++round) {
    EXPECT_NEAR(model.iteration_seconds(middle_empty, ws), middle_pace, 1e-12);
    EXPECT_NEAR(model.iteration_seconds(last_empty, ws), last_pace, 1e-12);
  }
  const Prediction p = model.predict(middle_empty);
  EXPECT_EQ(p.iteration_s, model.iteration_seconds(middle_empty, ws));
  EXPECT_EQ(p.ranks[1].total_s, 0.0);
  EXPECT_EQ(p.ranks[1].wait_s, 0.0);
}

TEST(PipelineSteadyState, AMessageBackOrACollectiveIsNoPipeline) {
  // Rank 1 answers rank 0: not a pipeline, replayed over iterations.
  Profile back = testing::empty_profile({10, 10});
  back.ranks[0].sections.push_back(Section{{compute_stage(0.1)}, {send_to(1, kBytes), recv_from(1, kBytes)}});
  back.ranks[1].sections.push_back(Section{{compute_stage(0.2)}, {recv_from(0, kBytes), send_to(0, kBytes)}});
  const Model answered(back, testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta));
  EXPECT_FALSE(answered.pipelined());
  const Prediction a = answered.predict(std::vector<std::int64_t>{10, 10});
  // The first iteration: rank 0 ends when rank 1's answer, sent after its
  // 0.2 s, arrives.
  EXPECT_NEAR(a.first_iteration_s, std::max(0.1 + kSendQ + kTransfer, 0.2) + kRecv + kSendQ + kTransfer + kRecv,
              1e-12);
  // Repeated, rank 0's next message is there before rank 1 has computed
  // its 0.2 s (0.1 s and two transfers later): rank 1 never waits, and
  // the iterations follow at its own time (repeated_iterations_test.cpp).
  EXPECT_NEAR(a.iteration_s, 0.2 + kRecv + kSendQ, 1e-12);

  Profile reduced = wavefront();
  for (auto& rank : reduced.ranks) {
    rank.sections.push_back(Section{{}, {testing::collective(Collective::allreduce, 8)}});
  }
  Cluster c = testing::uniform_cluster(kRanks, kSend, kRecv, kAlpha, kBeta);
  c.network.collectives[static_cast<std::size_t>(Collective::allreduce)] = CollectiveCurve{1e-3, 0, 0, 0, 0};
  const Model joined(reduced, c);
  EXPECT_FALSE(joined.pipelined());
  const Prediction j = joined.predict(std::vector<std::int64_t>{10, 10, 10});
  EXPECT_EQ(j.iteration_s, j.first_iteration_s);
  // The allreduce completes 1 ms after the wavefront's last rank arrives.
  const double wavefront_first = wavefront_model().predict(std::vector<std::int64_t>{10, 10, 10}).first_iteration_s;
  EXPECT_NEAR(j.iteration_s, wavefront_first + 1e-3, 1e-12);
}

}  // namespace
}  // namespace mheta::model
