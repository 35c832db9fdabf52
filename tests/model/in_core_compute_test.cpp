// Compute in core measured apart from the out-of-core capture
// (model/in_core_compute.hpp, docs/model.md "Compute in core"): what the
// capture run's records give each rank, and T_Phi' = T_Phi · W'/W · κ in
// core, by hand.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "model/in_core_compute.hpp"
#include "model/model.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

constexpr std::int64_t kRowBytes = 1000;
constexpr std::uint64_t kMemory = 100'000;  // 100 rows of the variable in core
constexpr double kOr = 1e-3;
constexpr double kOw = 2e-3;
constexpr double kR = 1e-7;
constexpr double kW = 3e-7;

// Two ranks of 80 rows, captured forced out of core: 0.8 s of compute
// (10 ms a row) and one sweep of a read-write variable in 4 ICLAs.
Profile captured() {
  const std::int64_t bytes = 80 * kRowBytes;
  Profile p = testing::one_sweep_profile(80, kRowBytes, 0.8, IoStats{4, bytes, 4 * kOr + kR * bytes},
                                         IoStats{4, bytes, 4 * kOw + kW * bytes});
  p.clock = ProfileClock::virtual_time;
  return p;
}

Cluster cluster() {
  Cluster c = testing::uniform_cluster(2, 0, 0, 0, 0);
  for (Node& n : c.nodes) {
    n.memory_bytes = kMemory;
    n.disk = DiskCosts{kOr, kOw, 0, 9e-9, 9e-9};
  }
  return c;
}

IterationTerms terms(double compute, double io) { return IterationTerms{compute, io, 0, 0, compute + io}; }

// The capture run of a rank that fits in core: the first iteration, the
// forced one before the capture and the captured one do I/O, the one going
// back in core reloads its block, then it computes in core.
std::vector<IterationTerms> in_core_after_capture(std::vector<double> in_core) {
  std::vector<IterationTerms> run = {terms(5.0, 9.0), terms(0.9, 0.2), terms(0.8, 0.2), terms(1.5, 0.1)};
  for (double c : in_core) run.push_back(terms(c, 0));
  return run;
}

Accounting records(std::vector<std::vector<IterationTerms>> ranks) {
  Accounting a;
  a.clock = "virtual";
  a.ranks = std::move(ranks);
  return a;
}

TEST(InCoreCompute, TheMedianOfTheIterationsWithoutIoIsRecorded) {
  Profile p = captured();
  const std::vector<IterationTerms> out_of_core(10, terms(0.8, 0.2));
  EXPECT_EQ(record_in_core_compute(p, records({in_core_after_capture({1.1, 0.95, 1.0, 1.3, 0.99}), out_of_core})),
            1);
  ASSERT_TRUE(p.ranks[0].in_core_compute_s.has_value());
  EXPECT_DOUBLE_EQ(*p.ranks[0].in_core_compute_s, 1.0);  // median of 0.95 0.99 1.0 1.1 1.3
  EXPECT_FALSE(p.ranks[1].in_core_compute_s.has_value());
}

TEST(InCoreCompute, TooFewInCoreIterationsRecordNothing) {
  Profile p = captured();
  // The first iteration never counts, whatever its I/O.
  std::vector<IterationTerms> two = in_core_after_capture({1.0, 1.0});
  two[0] = terms(7.0, 0);
  EXPECT_EQ(record_in_core_compute(p, records({two, two})), 0);
  EXPECT_FALSE(p.ranks[0].in_core_compute_s.has_value());
}

TEST(InCoreCompute, NothingWhenNotForcedOutOfCoreOrOfAnotherClock) {
  const std::vector<IterationTerms> run = in_core_after_capture({1.0, 1.0, 1.0});
  Profile in_core = captured();
  in_core.forced_out_of_core = false;
  EXPECT_EQ(record_in_core_compute(in_core, records({run, run})), 0);
  Profile p = captured();
  Accounting wall = records({run, run});
  wall.clock = "wall";
  EXPECT_EQ(record_in_core_compute(p, wall), 0);
  EXPECT_FALSE(p.ranks[0].in_core_compute_s.has_value());
}

TEST(InCoreCompute, RecordsOfAnotherRankCountAreRefused) {
  Profile p = captured();
  EXPECT_THROW(record_in_core_compute(p, records({in_core_after_capture({1, 1, 1})})), std::invalid_argument);
}

TEST(InCoreCompute, RanksWithoutAMeasurementTakeTheMedianRatio) {
  Profile p = testing::empty_profile({80, 80, 80, 80});
  for (RankProfile& rank : p.ranks) rank.sections.push_back(Section{{testing::compute_stage(0.8)}, {}});
  p.ranks[0].in_core_compute_s = 1.0;  // 1.25
  p.ranks[1].in_core_compute_s = 0.88;  // 1.1
  p.ranks[2].in_core_compute_s = 1.2;   // 1.5
  const std::vector<double> ratios = in_core_compute_ratios(p);
  ASSERT_EQ(ratios.size(), 4u);
  EXPECT_DOUBLE_EQ(ratios[0], 1.25);
  EXPECT_DOUBLE_EQ(ratios[1], 1.1);
  EXPECT_DOUBLE_EQ(ratios[2], 1.5);
  EXPECT_DOUBLE_EQ(ratios[3], 1.25);
  EXPECT_EQ(in_core_compute_ratios(captured()), (std::vector<double>{1.0, 1.0}));
}

TEST(InCoreCompute, InCoreRanksComputeAtTheMeasuredRateOutOfCoreOnesAtTheCaptured) {
  Profile p = captured();
  p.ranks[0].in_core_compute_s = 1.0;  // κ = 1.0 / 0.8 = 1.25; rank 1 takes the same
  const Model model(p, cluster());
  // Rank 0 in core (100 rows fit): T_Phi' = 0.8 · 100/80 · 1.25, no I/O.
  // Rank 1 out of core (60 rows fit too): 0.8 · 60/80 · 1.25.
  Prediction in_core = model.predict(std::vector<std::int64_t>{100, 60});
  EXPECT_DOUBLE_EQ(in_core.ranks[0].compute_s, 1.25);
  EXPECT_DOUBLE_EQ(in_core.ranks[1].compute_s, 0.75);
  EXPECT_DOUBLE_EQ(in_core.ranks[0].total_s, 1.25);
  // Rank 0 with 101 rows is out of core: the captured rate, 0.8 · 101/80,
  // plus Eq 1 with N_L = 2.
  Prediction out = model.predict(std::vector<std::int64_t>{101, 59});
  const double eq1 = 2 * (kOr + kOw) + (kR + kW) * 101.0 * kRowBytes;
  EXPECT_DOUBLE_EQ(out.ranks[0].compute_s, 1.01);
  EXPECT_NEAR(out.ranks[0].total_s, 1.01 + eq1, 1e-12);
  EXPECT_NEAR(model.rank_busy_seconds(0, 0, 100), 1.25, 1e-12);
  EXPECT_NEAR(model.rank_busy_seconds(0, 0, 101), 1.01 + eq1, 1e-12);
}

// The pace against the median iteration, by hand: mean total / median
// total of the iterations after the first, a rank in core without its
// iterations with I/O, the furthest from 1 over the ranks.
TEST(PaceOverMedianIteration, SteadyGrowthIsPacedByItsMedianALateJumpIsNot) {
  // Rank 0: 1, 2, 3, 4, 5 in core (the capture's 1.1, 1.0 and 1.6 with I/O
  // left out): mean 3, median 3. Rank 1: 1, 1, 1, 1, 5: mean 1.8, median 1.
  const Accounting run = records({in_core_after_capture({1, 2, 3, 4, 5}), in_core_after_capture({1, 1, 1, 1, 5})});
  ASSERT_TRUE(pace_over_median_iteration(run).has_value());
  EXPECT_NEAR(*pace_over_median_iteration(run), 1.8, 1e-12);
  const Accounting steady = records({in_core_after_capture({1, 2, 3, 4, 5})});
  EXPECT_NEAR(*pace_over_median_iteration(steady), 1.0, 1e-12);
}

TEST(PaceOverMedianIteration, AnOutOfCoreRankKeepsItsIterationsWithIo) {
  // Every iteration reads: totals 2, 2, 4 after the first, mean 8/3, median 2.
  const Accounting run = records({{terms(5, 9), terms(1, 1), terms(1, 1), terms(1, 3)}});
  EXPECT_NEAR(*pace_over_median_iteration(run), 4.0 / 3.0, 1e-12);
}

TEST(PaceOverMedianIteration, FurthestFromOneEitherWayAndNoneWithoutEnoughIterations) {
  // Totals 1, 1, 1.6 (mean 1.2) and 1, 1, 0.1 (mean 0.7): |ln 0.7| > |ln 1.2|.
  const Accounting run = records({{terms(5, 9), terms(1, 0), terms(1, 0), terms(1.6, 0)},
                                  {terms(5, 9), terms(1, 0), terms(1, 0), terms(0.1, 0)}});
  EXPECT_NEAR(*pace_over_median_iteration(run), 0.7, 1e-12);
  EXPECT_FALSE(pace_over_median_iteration(records({{terms(5, 9), terms(1, 0), terms(1, 0)}})).has_value());
}

}  // namespace
}  // namespace mheta::model
