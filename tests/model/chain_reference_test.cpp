// Model::iteration_seconds_if_below in a chain, measured from the last
// prediction: the ranks above the moved ones keep their own paths, not only
// those the messages carry (a rank that computes before it receives).
#include <gtest/gtest.h>

#include <vector>

#include "model/model.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

constexpr double kSend = 1e-3;
constexpr double kRecv = 2e-3;
constexpr double kLatency = 1e-2;

// Ranks 0..2 pass a message down the chain around 0.1 s of compute each
// (10 rows); rank 3 computes `last_compute` seconds before it receives.
Model chain(double last_compute, const Network* network = nullptr) {
  using testing::compute_stage;
  Profile p = testing::empty_profile({10, 10, 10, 10});
  p.ranks[0].sections.push_back(Section{{compute_stage(0.1)}, {testing::send_to(1, 100)}});
  for (int r = 1; r <= 2; ++r) {
    p.ranks[static_cast<std::size_t>(r)].sections.push_back(Section{{}, {testing::recv_from(r - 1, 100)}});
    p.ranks[static_cast<std::size_t>(r)].sections.push_back(
        Section{{compute_stage(0.1)}, {testing::send_to(r + 1, 100)}});
  }
  p.ranks[3].sections.push_back(Section{{compute_stage(last_compute)}, {testing::recv_from(2, 100)}});
  Cluster c = testing::uniform_cluster(4, kSend, kRecv, kLatency, 0.0);
  if (network != nullptr) c.network = *network;
  return Model(p, c);
}

TEST(ChainReference, ARankThatComputesBeforeItReceivesKeepsItsOwnPath) {
  const Model model = chain(5.0);
  Workspace ws(model);
  model.predict(std::vector<std::int64_t>{10, 10, 10, 10}, ws);
  // Five rows from rank 0 to rank 1: rank 3 is untouched and finishes its
  // own 5 s, then receives the message that arrived long before (Eq 3).
  const std::vector<std::int64_t> moved{5, 15, 10, 10};
  const double expected = 5.0 + kRecv;
  EXPECT_NEAR(model.iteration_seconds_if_below(moved, ws, 0.0), expected, 1e-12);
  EXPECT_DOUBLE_EQ(model.iteration_seconds_if_below(moved, ws, 10.0), expected);
}

TEST(ChainReference, TheMessagesCarryTheChangeToTheRanksAbove) {
  const Model model = chain(0.01);
  Workspace ws(model);
  model.predict(std::vector<std::int64_t>{10, 10, 10, 10}, ws);
  // Rank 0 (0.05 s) sends at 0.051; rank 1 receives at 0.063, computes
  // 0.15 s and sends at 0.214; rank 2 receives at 0.226, sends at 0.327;
  // rank 3 (0.01 s of its own) waits for that message: 0.337 + O<-.
  const std::vector<std::int64_t> moved{5, 15, 10, 10};
  const double expected = 0.05 + kSend + kLatency + kRecv + 0.15 + kSend + kLatency + kRecv + 0.1 + kSend +
                          kLatency + kRecv;
  EXPECT_NEAR(model.iteration_seconds_if_below(moved, ws, 0.0), expected, 1e-12);
  EXPECT_DOUBLE_EQ(model.iteration_seconds_if_below(moved, ws, 1.0), expected);
}

TEST(ChainReference, AMessageThatSkipsAnEmptiedRankTakesItsNewLink) {
  Network network = testing::uniform_cluster(4, kSend, kRecv, kLatency, 0.0).network;
  network.pairs.push_back(LinkException{0, 2, Link{1.0, 0.0}});  // a slow link from rank 0 to rank 2
  const Model model = chain(0.01, &network);
  // Rank 1's rows go to rank 2: rank 0 (unchanged, 0.1 s) now sends to
  // rank 2 over the slow link; rank 2 computes 0.2 s and sends to rank 3.
  const std::vector<std::int64_t> moved{10, 0, 20, 10};
  const double expected = 0.1 + kSend + 1.0 + kRecv + 0.2 + kSend + kLatency + kRecv;
  Workspace ws(model);
  model.predict(std::vector<std::int64_t>{10, 10, 10, 10}, ws);
  EXPECT_NEAR(model.iteration_seconds_if_below(moved, ws, 0.0), expected, 1e-12);
  EXPECT_DOUBLE_EQ(model.iteration_seconds_if_below(moved, ws, 10.0), expected);
  // The plain evaluation resumes at rank 1 after a replay of the first
  // distribution, keeping rank 0's send time, not its arrival.
  Workspace resumed(model);
  model.iteration_seconds(std::vector<std::int64_t>{10, 10, 10, 10}, resumed);
  EXPECT_DOUBLE_EQ(model.iteration_seconds(moved, resumed), expected);
}

TEST(ChainReference, TheRanksAboveHearFromTheRankThatNowOwnsTheLastRowsBelowThem) {
  const Model model = chain(0.01);
  Workspace ws(model);
  model.predict(std::vector<std::int64_t>{10, 10, 10, 10}, ws);
  // Rank 2 gives its rows to rank 1 and owns none: rank 3 hears from rank 1.
  const std::vector<std::int64_t> moved{10, 20, 0, 10};
  const double expected = 0.1 + kSend + kLatency + kRecv + 0.2 + kSend + kLatency + kRecv;
  EXPECT_NEAR(model.iteration_seconds_if_below(moved, ws, 0.0), expected, 1e-12);
  EXPECT_DOUBLE_EQ(model.iteration_seconds_if_below(moved, ws, 10.0), expected);
}

}  // namespace
}  // namespace mheta::model
