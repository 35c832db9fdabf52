// I/O inside the model: the in-core/out-of-core transition, r(m) and w(m)
// measured from the profile, prefetching and messages read from disk.
#include <gtest/gtest.h>

#include <vector>

#include "model/model.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

constexpr std::int64_t kRowBytes = 1000;
constexpr double kOr = 1e-3;
constexpr double kOw = 2e-3;
constexpr double kOa = 5e-4;
constexpr double kR = 1e-7;  // s/byte measured by the instrumented iteration
constexpr double kW = 3e-7;
constexpr std::uint64_t kMemory = 100'000;  // 100 rows of the variable in core

// Two ranks, one read-write variable swept once per iteration (forced out of
// core when instrumented, as MHETA §4.1.1 does), no communication.
Profile sweep_profile(bool prefetch, double overlap_per_row) {
  // Instrumented with 80 rows in 4 ICLAs of 20 rows, 10 ms of compute a row.
  const std::int64_t bytes = 80 * kRowBytes;
  return testing::one_sweep_profile(80, kRowBytes, 0.8, IoStats{4, bytes, 4 * kOr + kR * bytes},
                                    IoStats{4, bytes, 4 * kOw + kW * bytes}, prefetch, overlap_per_row * 80);
}

Cluster sweep_cluster() {
  Cluster c = testing::uniform_cluster(2, 0, 0, 0, 0);
  for (Node& n : c.nodes) {
    n.memory_bytes = kMemory;
    // r and w here differ from the profile's: the profile's measurement wins.
    n.disk = DiskCosts{kOr, kOw, kOa, 9e-9, 9e-9};
  }
  return c;
}

TEST(InCoreTransition, NoIoWhileTheBlockFits) {
  const Model model(sweep_profile(false, 0), sweep_cluster());
  const Prediction p = model.predict(std::vector<std::int64_t>{100, 60});
  EXPECT_EQ(p.ranks[0].io_s, 0.0);
  EXPECT_EQ(p.ranks[0].out_of_core_variables, 0);
  EXPECT_DOUBLE_EQ(p.ranks[0].total_s, 0.8 * 100 / 80);
  EXPECT_EQ(model.max_in_core_rows(0), 100);
}

TEST(InCoreTransition, OneRowMoreCostsEq1WithTwoIclas) {
  const Model model(sweep_profile(false, 0), sweep_cluster());
  const Prediction p = model.predict(std::vector<std::int64_t>{101, 59});
  // M_i = 100 rows, N_L = ceil(101/100) = 2; Eq 1 summed over the real chunks.
  const double bytes = 101.0 * kRowBytes;
  const double eq1 = 2 * (kOr + kOw) + (kR + kW) * bytes;
  EXPECT_NEAR(p.ranks[0].io_s, eq1, 1e-15);
  EXPECT_EQ(p.ranks[0].chunks, 2);
  EXPECT_EQ(p.ranks[0].icla_bytes, 100 * kRowBytes);
  EXPECT_NEAR(p.ranks[0].total_s, 0.8 * 101 / 80 + eq1, 1e-12);
  EXPECT_EQ(p.ranks[1].io_s, 0.0);
}

TEST(InCoreTransition, ReadOnlyVariablesPayNoWrites) {
  Profile profile = sweep_profile(false, 0);
  profile.variables[0].access = Access::read_only;
  for (auto& rank : profile.ranks) rank.sections[0].stages[0].io[0].writes = IoStats{};
  const Model model(profile, sweep_cluster());
  const Prediction p = model.predict(std::vector<std::int64_t>{160, 0});
  // N_L = ceil(160/100) = 2.
  EXPECT_NEAR(p.ranks[0].io_s, 2 * kOr + kR * 160 * kRowBytes, 1e-15);
}

TEST(Prefetch, FullyHiddenReadsCostOnlyTheFirstIclaAndOverheads) {
  // 10 ms of compute per row overlaps a 0.1 ms read: T_s = 0.
  const Model model(sweep_profile(true, 0.01), sweep_cluster());
  const Prediction p = model.predict(std::vector<std::int64_t>{120, 40});
  // Double-buffered: M_i = floor(100'000 / (2 * 1000)) = 50 rows, N_L = 3.
  const double icla = 50.0 * kRowBytes;
  const double eq2 = 3 * (kOr + kOa + kOw) + kW * 120 * kRowBytes + kR * icla;
  EXPECT_NEAR(p.ranks[0].io_s, eq2, 1e-15);
  EXPECT_EQ(p.ranks[0].chunks, 3);
}

TEST(Prefetch, PartlyHiddenReadsChargeTheStalls) {
  // T_A per row is 1e-5 s, r * row = 1e-4 s: each later ICLA stalls 9e-5 s per row.
  const double overlap_per_row = 1e-5;
  const Model model(sweep_profile(true, overlap_per_row), sweep_cluster());
  const Prediction p = model.predict(std::vector<std::int64_t>{120, 40});
  const double t_r_full = kR * 50 * kRowBytes;
  const double t_a_full = overlap_per_row * 50;
  const double t_r_last = kR * 20 * kRowBytes;
  const double reads = 3 * (kOr + kOa) + t_r_full + (t_r_full - t_a_full) + std::max(0.0, t_r_last - t_a_full);
  const double writes = 3 * kOw + kW * 120 * kRowBytes;
  EXPECT_NEAR(p.ranks[0].io_s, reads + writes, 1e-15);
}

TEST(MessagesFromDisk, SendingFromAnOutOfCoreArrayReadsTheMessage) {
  Profile profile = sweep_profile(false, 0);
  CommOp send = testing::send_to(1, 4000);
  send.from_variable = 0;
  profile.ranks[0].sections[0].comm.push_back(send);
  profile.ranks[1].sections[0].comm.push_back(testing::recv_from(0, 4000));
  const Model model(profile, sweep_cluster());
  const double in_core = model.predict(std::vector<std::int64_t>{100, 60}).ranks[0].io_s;
  EXPECT_EQ(in_core, 0.0);
  const Prediction p = model.predict(std::vector<std::int64_t>{101, 59});
  const double sweep = 2 * (kOr + kOw) + (kR + kW) * 101 * kRowBytes;
  EXPECT_NEAR(p.ranks[0].io_s, sweep + kOr + kR * 4000, 1e-15);
}

TEST(Calibration, CachedRequestsAreNotChargedTheClusterOverhead) {
  // Rank 0 measured its 4 reads and 4 writes at a tenth of the cluster's
  // per-request overheads (a page cache, not a disk).
  Profile profile = sweep_profile(false, 0);
  StageIo& io = profile.ranks[0].sections[0].stages[0].io[0];
  io.reads.seconds = 0.4 * kOr;
  io.writes.seconds = 0.4 * kOw;
  const Model model(profile, sweep_cluster());
  // 101 rows: N_L = 2 ICLAs, each charged the measured 0.1·O per request.
  const Prediction p = model.predict(std::vector<std::int64_t>{101, 59});
  EXPECT_NEAR(p.ranks[0].io_s, 2 * 0.1 * (kOr + kOw), 1e-15);
  // Rank 1's measurement is above the overheads: Eq 1 as before.
  const Prediction q = model.predict(std::vector<std::int64_t>{59, 101});
  EXPECT_NEAR(q.ranks[1].io_s, 2 * (kOr + kOw) + (kR + kW) * 101 * kRowBytes, 1e-15);
}

TEST(RowWeights, ComputeScalesWithTheWorkOfTheNewRows) {
  Profile profile = sweep_profile(false, 0);
  profile.row_weights.assign(160, 1.0);
  for (int i = 0; i < 40; ++i) profile.row_weights[static_cast<std::size_t>(i)] = 4.0;  // dense rows first
  const Model model(profile, sweep_cluster());
  // Rank 0 was instrumented with work 40*4 + 40 = 200 and 0.8 s.
  EXPECT_DOUBLE_EQ(model.work_of_rows(0, 80), 200.0);
  const Prediction p = model.predict(std::vector<std::int64_t>{40, 120});
  EXPECT_DOUBLE_EQ(p.ranks[0].compute_s, 0.8 * 160 / 200);
  EXPECT_DOUBLE_EQ(p.ranks[1].compute_s, 0.8 * 120 / 80);
}

TEST(BusyTime, IsNonDecreasingInRowsAndMatchesTheReplayWithoutWaits) {
  const Model model(sweep_profile(true, 1e-5), sweep_cluster());
  double previous = 0;
  for (std::int64_t rows = 0; rows <= 160; ++rows) {
    const double busy = model.rank_busy_seconds(0, 0, rows);
    EXPECT_GE(busy, previous) << rows << " rows";
    previous = busy;
  }
  const Prediction p = model.predict(std::vector<std::int64_t>{120, 40});
  EXPECT_NEAR(model.rank_busy_seconds(0, 0, 120), p.ranks[0].total_s, 1e-15);
}

TEST(Workspace, HotPathAgreesWithTheDetailedPrediction) {
  const Model model(sweep_profile(true, 1e-5), sweep_cluster());
  Workspace ws(model);
  for (std::int64_t rows = 0; rows <= 160; rows += 16) {
    const std::vector<std::int64_t> dist{rows, 160 - rows};
    EXPECT_DOUBLE_EQ(model.iteration_seconds(dist, ws), model.predict(dist).iteration_s);
  }
}

}  // namespace
}  // namespace mheta::model
