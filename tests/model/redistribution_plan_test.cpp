#include "model/redistribution_plan.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace mheta::model {
namespace {

bool operator==(const RowTransfer& a, const RowTransfer& b) {
  return a.from == b.from && a.to == b.to && a.first_row == b.first_row && a.rows == b.rows;
}

TEST(RedistributionPlan, SameDistributionMovesNothing) {
  EXPECT_TRUE(plan_transfers(GenBlock{{3, 4, 5}}, GenBlock{{3, 4, 5}}).empty());
}

TEST(RedistributionPlan, ShiftingOneBoundaryMovesTheRowsBetween) {
  // Rows 0-9 | 10-19 becomes 0-13 | 14-19: rows 10-13 go from rank 1 to rank 0.
  const auto t = plan_transfers(GenBlock{{10, 10}}, GenBlock{{14, 6}});
  ASSERT_EQ(t.size(), 1u);
  EXPECT_TRUE(t[0] == (RowTransfer{1, 0, 10, 4}));
}

TEST(RedistributionPlan, EmptyingARankSendsAllItsRowsToBothSides) {
  // 0-3 | 4-7 | 8-11  ->  0-5 | - | 6-11
  const auto t = plan_transfers(GenBlock{{4, 4, 4}}, GenBlock{{6, 0, 6}});
  ASSERT_EQ(t.size(), 2u);
  EXPECT_TRUE(t[0] == (RowTransfer{1, 0, 4, 2}));
  EXPECT_TRUE(t[1] == (RowTransfer{1, 2, 6, 2}));
}

TEST(RedistributionPlan, EveryMovedRowChangesOwnerAndEveryOtherRowStays) {
  const GenBlock from{{7, 0, 13, 5, 9}};
  const GenBlock to{{2, 11, 0, 16, 5}};
  const auto transfers = plan_transfers(from, to);
  auto owner = [](const GenBlock& d, std::int64_t row) {
    int r = 0;
    for (std::int64_t end = d.rows[0]; end <= row; end += d.rows[static_cast<std::size_t>(++r)]) {
    }
    return r;
  };
  std::int64_t moved = 0;
  for (const RowTransfer& t : transfers) {
    for (std::int64_t row = t.first_row; row < t.first_row + t.rows; ++row) {
      EXPECT_EQ(owner(from, row), t.from);
      EXPECT_EQ(owner(to, row), t.to);
    }
    moved += t.rows;
  }
  std::int64_t changed = 0;
  for (std::int64_t row = 0; row < 34; ++row) changed += owner(from, row) != owner(to, row);
  EXPECT_EQ(moved, changed);
}

TEST(RedistributionPlan, DistributionsOfDifferentShapesAreRefused) {
  EXPECT_THROW(plan_transfers(GenBlock{{1, 2}}, GenBlock{{3}}), std::invalid_argument);
  EXPECT_THROW(plan_transfers(GenBlock{{1, 2}}, GenBlock{{1, 3}}), std::invalid_argument);
}

}  // namespace
}  // namespace mheta::model

// The price of a move (model/redistribution_cost.cpp), term by term
// against its hand-written form: two ranks, one read-write variable.
#include "model/model.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

constexpr std::int64_t kRowBytes = 1000;
constexpr double kOr = 1e-3;  // per request (cluster.json)
constexpr double kOw = 2e-3;
constexpr double kR = 1e-7;  // s/byte measured by the captured iteration
constexpr double kW = 3e-7;

// Each rank swept its 80 rows out of core (4 ICLAs) in the captured iteration.
Profile moving_profile(double r, double w) {
  Profile p = testing::empty_profile({80, 80});
  p.variables = {Variable{"A", kRowBytes, Access::read_write}};
  for (auto& rank : p.ranks) {
    const std::int64_t bytes = 80 * kRowBytes;
    Stage stage = testing::compute_stage(0.8);
    stage.io.push_back(StageIo{0, IoStats{4, bytes, 4 * kOr * (r > 0) + r * bytes},
                               IoStats{4, bytes, 4 * kOw * (w > 0) + w * bytes}, false, 0});
    rank.sections.push_back(Section{{stage}, {}});
  }
  return p;
}

// free_disk: every disk cost zero. Otherwise the cluster's r and w differ
// from the profile's: the profile's measurement wins.
Cluster moving_cluster(bool free_disk) {
  Cluster c = testing::uniform_cluster(2, 1e-4, 2e-4, 1e-3, 1e-8);
  for (Node& n : c.nodes) {
    n.memory_bytes = 100 * kRowBytes;
    n.disk = free_disk ? DiskCosts{0, 0, 0, 0, 0} : DiskCosts{kOr, kOw, 0, 9e-9, 9e-9};
  }
  return c;
}

const std::vector<std::int64_t> kBlk{80, 80};

// On free disks, a move that moves nothing costs only the fixed part
// (creating, syncing, committing): hundredths of a second, never zero.
double fixed_commit_seconds() {
  return Model(moving_profile(0, 0), moving_cluster(true)).redistribution_seconds(kBlk, kBlk);
}

TEST(RedistributionCost, TheFixedCommitCostIsHundredthsOfASecond) {
  EXPECT_GT(fixed_commit_seconds(), 0.01);
  EXPECT_LT(fixed_commit_seconds(), 0.1);
}

TEST(RedistributionCost, NothingMovedStillCopiesAndVerifiesTheKeptRows) {
  const Model model(moving_profile(kR, kW), moving_cluster(false));
  // Both ranks keep their 80 rows: each reads its block, writes it beside
  // the old one, reads it back to verify it, then the commit.
  const double bytes = 80.0 * kRowBytes;
  const double copy = (kOr + kR * bytes) + (kOw + kW * bytes) + (kOr + kR * bytes);
  EXPECT_NEAR(model.redistribution_seconds(kBlk, kBlk), copy + fixed_commit_seconds(), 1e-12);
}

TEST(RedistributionCost, TwoRanksByHandMovedBytesOverTheLinkPlusDiskPlusReadBackPlusCommit) {
  const Model model(moving_profile(kR, kW), moving_cluster(false));
  // Rank 1 gives its first 20 rows to rank 0 ({80, 80} -> {100, 60}).
  const double moved = 20.0 * kRowBytes;
  // Rank 0: reads its 80 rows (one piece: all kept); receives one message;
  // writes 100 rows in two pieces (kept + received); reads 100 back.
  const double rank0 = (kOr + kR * 80 * kRowBytes) + 2e-4 + (2 * kOw + kW * 100 * kRowBytes) +
                       (kOr + kR * 100 * kRowBytes);
  // Rank 1: reads 80 rows in two pieces (kept + sent); sends 20 rows over
  // the link (overhead + latency + bytes x s/byte); writes 60 rows (one
  // piece); reads 60 back.
  const double rank1 = (2 * kOr + kR * 80 * kRowBytes) + (1e-4 + 1e-3 + 1e-8 * moved) + (kOw + kW * 60 * kRowBytes) +
                       (kOr + kR * 60 * kRowBytes);
  EXPECT_NEAR(model.redistribution_seconds(kBlk, std::vector<std::int64_t>{100, 60}),
              std::max(rank0, rank1) + fixed_commit_seconds(), 1e-12);
  // The slowest rank sets the price: here rank 0, which writes more.
  EXPECT_GT(rank0, rank1);
}

// With the cluster's mapped_hash_s_per_byte (h), the reads are that
// measured whole: the old block and the new one read back through their
// mappings, every row hashed, h x bytes, in place of the captured
// iteration's read requests. A node h times slower pays h times the
// hashing: the slow node that only sends sets the price.
TEST(RedistributionCost, MeasuredMappedHashingPricesTheReadsAtEachNodesSpeed) {
  constexpr double kHash = 5e-8;
  Cluster cluster = moving_cluster(false);
  cluster.nodes[0].disk.mapped_hash_s_per_byte = kHash;
  cluster.nodes[1].disk.mapped_hash_s_per_byte = 6 * kHash;  // a node six times slower
  const Model model(moving_profile(kR, kW), cluster);
  const double moved = 20.0 * kRowBytes;
  // {80, 80} -> {100, 60} as above: rank 0 hashes 80 rows read and 100
  // read back, rank 1 80 and 60, at its own rate.
  const double rank0 = 2e-4 + (2 * kOw + kW * 100 * kRowBytes) + kHash * (80 + 100) * kRowBytes;
  const double rank1 = (1e-4 + 1e-3 + 1e-8 * moved) + (kOw + kW * 60 * kRowBytes) + 6 * kHash * (80 + 60) * kRowBytes;
  EXPECT_NEAR(model.redistribution_seconds(kBlk, std::vector<std::int64_t>{100, 60}),
              std::max(rank0, rank1) + fixed_commit_seconds(), 1e-12);
  EXPECT_GT(rank1, rank0);
}

}  // namespace
}  // namespace mheta::model
