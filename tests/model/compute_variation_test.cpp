// Compute that varies from one iteration to the next (model/
// compute_variation.hpp, docs/model.md "Compute that varies from iteration
// to iteration"): what the capture run's records give each rank, and the
// iteration the model replays from them, by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "model/compute_variation.hpp"
#include "model/model.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

using namespace testing::message_costs;
using testing::compute_stage;

const std::vector<std::int64_t> kRows{10, 10};
constexpr double kAllreduce = 1e-3;  // the collective's cost, whatever the ranks and bytes

// Two ranks that compute c0 and c1, then meet in an allreduce.
Profile synchronized(double c0, double c1) {
  Profile p = testing::empty_profile({10, 10});
  p.iterations = 10;
  const double compute[2] = {c0, c1};
  for (std::size_t r = 0; r < 2; ++r) {
    p.ranks[r].sections.push_back(
        Section{{compute_stage(compute[r])}, {testing::collective(Collective::allreduce, 8)}});
  }
  return p;
}

Cluster cluster() {
  Cluster c = testing::uniform_cluster(2, kSend, kRecv, kAlpha, kBeta);
  c.network.collectives[static_cast<std::size_t>(Collective::allreduce)] = CollectiveCurve{kAllreduce, 0, 0, 0, 0};
  return c;
}

TEST(ComputeVariation, ASynchronizedIterationLastsAsLongAsItsSlowestRankInIt) {
  Profile p = synchronized(0.2, 0.3);
  const Prediction median = Model(p, cluster()).predict(kRows);
  EXPECT_NEAR(median.iteration_s, 0.3 + kAllreduce, 1e-12);
  p.ranks[0].compute_variation = {1, 2, 1, 0.5};
  p.ranks[1].compute_variation = {1, 1, 1.5, 1};
  const Model model(p, cluster());
  const Prediction varied = model.predict(kRows);
  // Per sample, the slower of 0.2·x0 and 0.3·x1: 0.3, 0.4, 0.45, 0.3.
  const double slowest = (0.3 + 0.4 + 0.45 + 0.3) / 4;
  EXPECT_NEAR(varied.iteration_s, slowest + kAllreduce, 1e-12);
  // Typically (each rank's median iteration, as validate measures runs):
  // the median of those four.
  EXPECT_NEAR(varied.typical_iteration_s, (0.3 + 0.4) / 2 + kAllreduce, 1e-12);
  EXPECT_DOUBLE_EQ(median.typical_iteration_s, median.iteration_s);
  // Each rank's terms are its means over the samples.
  EXPECT_NEAR(varied.ranks[0].compute_s, 0.2 * (1 + 2 + 1 + 0.5) / 4, 1e-12);
  EXPECT_NEAR(varied.ranks[0].wait_s, (0.1 + 0 + 0.25 + 0.2) / 4, 1e-12);
  EXPECT_NEAR(varied.ranks[1].compute_s, 0.3 * (1 + 1 + 1.5 + 1) / 4, 1e-12);
  EXPECT_NEAR(varied.ranks[1].total_s, slowest + kAllreduce, 1e-12);
  // The first iteration and a search's evaluation keep the median compute.
  EXPECT_NEAR(varied.first_iteration_s, 0.3 + kAllreduce, 1e-12);
  EXPECT_NEAR(varied.run_s, varied.first_iteration_s + 9 * varied.iteration_s, 1e-12);
  Workspace ws(model);
  EXPECT_NEAR(model.iteration_seconds(kRows, ws), 0.3 + kAllreduce, 1e-12);
  // And the workspace's costs are the rows' again after a prediction.
  model.predict(kRows, ws);
  EXPECT_NEAR(model.iteration_seconds(kRows, ws), 0.3 + kAllreduce, 1e-12);
}

TEST(ComputeVariation, AVariationScalesWithTheRanksNewWork) {
  Profile p = synchronized(0.2, 0.3);
  p.ranks[0].compute_variation = {1, 2};
  p.ranks[1].compute_variation = {1, 1};
  // Rank 0 with 15 rows computes 0.3 at its median, rank 1 with 5 0.15.
  const Prediction varied = Model(p, cluster()).predict(std::vector<std::int64_t>{15, 5});
  EXPECT_NEAR(varied.iteration_s, (0.3 + 0.6) / 2 + kAllreduce, 1e-12);
}

// Rank 0 sends to rank 1, which receives; no collective.
Profile one_message(double c0, double c1) {
  Profile p = testing::empty_profile({10, 10});
  p.ranks[0].sections.push_back(Section{{compute_stage(c0)}, {testing::send_to(1, kBytes)}});
  p.ranks[1].sections.push_back(Section{{compute_stage(c1)}, {testing::recv_from(0, kBytes)}});
  return p;
}

TEST(ComputeVariation, ARankThatHoldsNoOneBackRepeatsAtItsMeanCompute) {
  // Rank 0 runs ahead of rank 1 at its own pace, whose mean is the
  // iteration's: 0.2 · (1 + 3) / 2 = 0.4 per iteration, against 0.2 +
  // O->(q) replayed from its median.
  Profile p = one_message(0.2, 0.05);
  p.ranks[0].compute_variation = {1, 3};
  p.ranks[1].compute_variation = {1, 1};
  const Prediction varied = Model(p, cluster()).predict(kRows);
  EXPECT_NEAR(varied.ranks[0].total_s, 0.4 + kSendQ, 1e-12);
  EXPECT_NEAR(varied.iteration_s, 0.4 + kSendQ, 1e-12);
}

TEST(ComputeVariation, FactorsOfOneChangeNothing) {
  Profile p = one_message(0.01, 0.002);
  const Prediction before = Model(p, cluster()).predict(kRows);
  p.ranks[0].compute_variation.assign(8, 1.0);
  p.ranks[1].compute_variation.assign(8, 1.0);
  const Prediction after = Model(p, cluster()).predict(kRows);
  EXPECT_NEAR(after.iteration_s, before.iteration_s, 1e-12);
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_NEAR(after.ranks[r].compute_s, before.ranks[r].compute_s, 1e-12);
    EXPECT_NEAR(after.ranks[r].wait_s, before.ranks[r].wait_s, 1e-12);
    EXPECT_NEAR(after.ranks[r].total_s, before.ranks[r].total_s, 1e-12);
  }
}

TEST(ComputeVariation, RanksWithSamplesOfDifferentLengthsAreRefused) {
  Profile p = synchronized(0.2, 0.3);
  p.ranks[0].compute_variation = {1, 2};
  EXPECT_THROW(Model(p, cluster()), ModelError);
}

// The records of a rank: a first iteration (what came before the loop),
// then one per compute value.
std::vector<IterationTerms> records(std::vector<double> compute) {
  std::vector<IterationTerms> run = {IterationTerms{9, 0, 0, 0, 9}};
  for (double c : compute) run.push_back(IterationTerms{c, 0, 0, 0.1, c + 0.1});
  return run;
}

Accounting run_of(std::vector<std::vector<IterationTerms>> ranks, std::vector<std::int64_t> skipped = {}) {
  Accounting a;
  a.clock = "virtual";
  a.ranks = std::move(ranks);
  a.skipped = std::move(skipped);
  return a;
}

Profile virtual_profile() {
  Profile p = synchronized(0.2, 0.3);
  p.clock = ProfileClock::virtual_time;
  return p;
}

TEST(ComputeVariation, EachRanksComputeOverItsMedianInTheRunsOrder) {
  Profile p = virtual_profile();
  const Accounting run = run_of({records({1, 2, 1, 1, 3, 1, 1, 1, 1, 0.5}), records({2, 2, 2, 4, 2, 2, 2, 2, 2, 2})});
  EXPECT_EQ(record_compute_variation(p, run), 10u);
  EXPECT_EQ(p.ranks[0].compute_variation, (std::vector<double>{1, 2, 1, 1, 3, 1, 1, 1, 1, 0.5}));
  EXPECT_EQ(p.ranks[1].compute_variation, (std::vector<double>{1, 1, 1, 2, 1, 1, 1, 1, 1, 1}));
}

TEST(ComputeVariation, RanksAreAlignedOnTheRunsIterations) {
  // Rank 1's records begin after 3 of the run's iterations: its record k
  // is the run's iteration 3 + k. Common to both: iterations 4 to 11.
  Profile p = virtual_profile();
  const Accounting run = run_of({records({5, 5, 5, 1, 2, 1, 1, 2, 1, 1, 4, 5, 5}), records({1, 1, 1, 1, 1, 1, 1, 2})},
                                {0, 3});
  EXPECT_EQ(record_compute_variation(p, run), 8u);
  EXPECT_EQ(p.ranks[0].compute_variation, (std::vector<double>{1, 2, 1, 1, 2, 1, 1, 4}));
  EXPECT_EQ(p.ranks[1].compute_variation, (std::vector<double>{1, 1, 1, 1, 1, 1, 1, 2}));
}

TEST(ComputeVariation, SampledRanksShareTheIterationsBothKept) {
  // Rank 0 sampled every 2nd iteration after skipping 1: records are
  // iterations 1, 2, 4, ..., 18. Rank 1 every iteration from 0: 0 to 17.
  // Common after both first records: 2, 4, ..., 16 (8 of them).
  Profile p = virtual_profile();
  Accounting run = run_of({records({1, 2, 1, 1, 2, 1, 1, 4, 9}),
                           records({9, 3, 9, 3, 9, 3, 9, 3, 9, 3, 9, 3, 9, 3, 9, 6, 9})},
                          {1, 0});
  run.every = {2, 1};
  EXPECT_EQ(record_compute_variation(p, run), 8u);
  EXPECT_EQ(p.ranks[0].compute_variation, (std::vector<double>{1, 2, 1, 1, 2, 1, 1, 4}));
  EXPECT_EQ(p.ranks[1].compute_variation, (std::vector<double>{1, 1, 1, 1, 1, 1, 1, 2}));
}

TEST(ComputeVariation, IterationsWithIoOfARankInCoreAreLeftOut) {
  // Rank 0 runs in core after a capture forced it out of core (records 1-3
  // with I/O, less compute); rank 1 is out of core throughout.
  Profile p = virtual_profile();
  std::vector<IterationTerms> in_core = records({0.5, 0.5, 0.5, 1, 2, 1, 1, 1, 1, 1, 1});
  for (std::size_t k = 1; k <= 3; ++k) in_core[k].io_s = 0.3;
  std::vector<IterationTerms> out_of_core = records({2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 4});
  for (std::size_t k = 1; k < out_of_core.size(); ++k) out_of_core[k].io_s = 0.3;
  EXPECT_EQ(record_compute_variation(p, run_of({in_core, out_of_core})), 8u);
  EXPECT_EQ(p.ranks[0].compute_variation, (std::vector<double>{1, 2, 1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(p.ranks[1].compute_variation, (std::vector<double>{1, 1, 1, 1, 1, 1, 1, 2}));
}

double mean_of(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size()); }

TEST(ComputeVariation, ALongRunIsSampledEvenlyAtItsMean) {
  Profile p = virtual_profile();
  std::vector<double> compute;
  for (int k = 0; k < 130; ++k) compute.push_back(k % 2 == 0 ? 1.0 : 3.0);  // median 2, mean 2
  EXPECT_EQ(record_compute_variation(p, run_of({records(compute), records(compute)})), kVariationSamples);
  const std::vector<double>& variation = p.ranks[0].compute_variation;
  ASSERT_EQ(variation.size(), kVariationSamples);
  // Sample j is iteration j · 130 / 64 of the common ones: half of them
  // 0.5 of the median, half 1.5, their mean the run's (1): unscaled.
  for (std::size_t j = 0; j < kVariationSamples; ++j) {
    EXPECT_EQ(variation[j], (j * 130 / kVariationSamples) % 2 == 0 ? 0.5 : 1.5) << j;
  }
  EXPECT_DOUBLE_EQ(mean_of(variation), 1.0);
}

TEST(ComputeVariation, APeriodicHeavyIterationKeepsItsShareOfTheMean) {
  // A diagnostic every 20th of 299 iterations costs 5 times the others':
  // a stride of 299 / 64 falls on 2 of them (3 % of the samples), where the
  // run has 14 (4.7 %). Unscaled, the samples' mean would be 72 / 64.
  Profile p = virtual_profile();
  std::vector<double> compute;
  for (int k = 0; k < 299; ++k) compute.push_back(k % 20 == 19 ? 5.0 : 1.0);
  EXPECT_EQ(record_compute_variation(p, run_of({records(compute), records(compute)})), kVariationSamples);
  const std::vector<double>& variation = p.ranks[0].compute_variation;
  std::size_t heavy = 0;
  for (std::size_t j = 0; j < kVariationSamples; ++j) heavy += (j * 299 / kVariationSamples) % 20 == 19;
  EXPECT_EQ(heavy, 2u);
  // Mean of the run over its median (1): (285 + 14 · 5) / 299.
  EXPECT_NEAR(mean_of(variation), 355.0 / 299.0, 1e-12);
  // Each heavy sample stays 5 times a light one.
  const auto [low, high] = std::minmax_element(variation.begin(), variation.end());
  EXPECT_NEAR(*high / *low, 5.0, 1e-12);
}

TEST(ComputeVariation, TooFewIterationsOrAnotherClockRecordNone) {
  Profile p = virtual_profile();
  p.ranks[0].compute_variation = {1, 2};
  p.ranks[1].compute_variation = {1, 2};
  const std::vector<double> seven(kMinVariationSamples - 1, 1.0);
  EXPECT_EQ(record_compute_variation(p, run_of({records(seven), records(seven)})), 0u);
  EXPECT_TRUE(p.ranks[0].compute_variation.empty());
  const std::vector<double> eight(kMinVariationSamples, 1.0);
  Accounting wall = run_of({records(eight), records(eight)});
  wall.clock = "wall";
  EXPECT_EQ(record_compute_variation(p, wall), 0u);
  EXPECT_THROW(record_compute_variation(p, run_of({records(eight)})), std::invalid_argument);
}

TEST(ComputeVariation, ARankThatComputesNothingVariesNot) {
  Profile p = virtual_profile();
  const std::vector<double> zero(8, 0.0);
  EXPECT_EQ(record_compute_variation(p, run_of({records(zero), records({1, 2, 1, 1, 1, 1, 1, 1})})), 8u);
  EXPECT_EQ(p.ranks[0].compute_variation, std::vector<double>(8, 1.0));
}

}  // namespace
}  // namespace mheta::model
