// I/O the program does on its own files (docs/model.md, "I/O the program
// does itself"): paid whatever the memory, at the rank's calibrated request
// overheads and per-byte latencies, in proportion to the rows when the
// captured bytes were the rank's block of rows, the same otherwise.
#include <gtest/gtest.h>

#include <vector>

#include "model/format_error.hpp"
#include "model/model.hpp"
#include "model_fixture.hpp"

namespace mheta::model {
namespace {

constexpr std::int64_t kRowBytes = 8192;
constexpr double kOr = 1e-4;  // the cluster's disk: O_r, O_w
constexpr double kOw = 2e-4;
constexpr double kR = 2e-9;  // s/byte measured by the captured iteration
constexpr double kW = 5e-9;

// Two ranks of 128 rows; each computes 1 ms and streams its block of a
// shared file through a 64-row buffer: 2 reads and 2 writes of 64 rows.
Profile streaming_profile(bool per_row) {
  Profile p = testing::empty_profile({128, 128});
  Variable file{"field.dat", kRowBytes, Access::read_write, VariableIo::program_file, per_row};
  p.variables = {file};
  const std::int64_t bytes = 128 * kRowBytes;
  for (RankProfile& rank : p.ranks) {
    Stage stage = testing::compute_stage(1e-3);
    stage.io.push_back(StageIo{0, IoStats{2, bytes, 2 * kOr + kR * bytes}, IoStats{2, bytes, 2 * kOw + kW * bytes}});
    rank.sections.push_back(Section{{stage}, {}});
  }
  return p;
}

Cluster disk_cluster(std::uint64_t memory_bytes) {
  Cluster c = testing::uniform_cluster(2, 0, 0, 0, 0);
  for (Node& n : c.nodes) {
    n.memory_bytes = memory_bytes;
    n.disk = DiskCosts{kOr, kOw, 0, 9e-9, 9e-9};  // per byte: the profile's measurement wins
  }
  return c;
}

// The captured iteration's I/O of one rank: 2·O_r + r·bytes + 2·O_w + w·bytes.
constexpr double captured_io_s() {
  const double bytes = 128.0 * kRowBytes;
  return 2 * (kOr + kOw) + (kR + kW) * bytes;
}

TEST(ProgramIo, IsPaidInCoreAtTheCapturedRows) {
  // Memory for every row many times over: an out-of-core array would cost nothing.
  const Model model(streaming_profile(true), disk_cluster(1ull << 40));
  const Prediction p = model.predict(std::vector<std::int64_t>{128, 128});
  EXPECT_NEAR(p.ranks[0].io_s, captured_io_s(), 1e-15);
  EXPECT_EQ(p.ranks[0].out_of_core_variables, 0);
  EXPECT_NEAR(p.iteration_s, 1e-3 + captured_io_s(), 1e-15);
}

TEST(ProgramIo, AFileStreamedByRowsFollowsTheRows) {
  const Model model(streaming_profile(true), disk_cluster(1ull << 40));
  const Prediction p = model.predict(std::vector<std::int64_t>{192, 64});
  // Rank 0 streams half as many rows again: 3 requests of each kind and 192 rows' bytes.
  const double bytes = 192.0 * kRowBytes;
  EXPECT_NEAR(p.ranks[0].io_s, 3 * (kOr + kOw) + (kR + kW) * bytes, 1e-15);
  EXPECT_NEAR(p.ranks[1].io_s, 1 * (kOr + kOw) + (kR + kW) * 64 * kRowBytes, 1e-15);
  EXPECT_NEAR(p.ranks[0].compute_s, 1e-3 * 192 / 128, 1e-15);
}

TEST(ProgramIo, AFileNotOfTheRowsCostsTheSameAtAnyRows) {
  const Model model(streaming_profile(false), disk_cluster(1ull << 40));
  const Prediction p = model.predict(std::vector<std::int64_t>{192, 64});
  EXPECT_NEAR(p.ranks[0].io_s, captured_io_s(), 1e-15);
  EXPECT_NEAR(p.ranks[1].io_s, captured_io_s(), 1e-15);
}

TEST(ProgramIo, MemoryDoesNotChangeItNorDoesItTakeMemory) {
  // 64 KiB of memory: a 128-row array of 8 KiB rows would be out of core.
  const Model model(streaming_profile(true), disk_cluster(64 * 1024));
  const Prediction p = model.predict(std::vector<std::int64_t>{128, 128});
  EXPECT_NEAR(p.ranks[0].io_s, captured_io_s(), 1e-15);
  EXPECT_EQ(p.ranks[0].out_of_core_variables, 0);
  EXPECT_EQ(model.max_in_core_rows(0), 256);  // no out-of-core array: every row fits
}

TEST(ProgramIo, ARankWithoutRowsDoesNone) {
  const Model model(streaming_profile(false), disk_cluster(1ull << 40));
  const Prediction p = model.predict(std::vector<std::int64_t>{256, 0});
  EXPECT_EQ(p.ranks[1].io_s, 0.0);
}

TEST(ProgramIo, BesideAnOutOfCoreArrayEachIsPricedItsOwnWay) {
  Profile profile = streaming_profile(true);
  profile.variables.push_back(Variable{"A", 1000, Access::read_only});
  for (RankProfile& rank : profile.ranks) {
    rank.sections[0].stages[0].io.push_back(StageIo{1, IoStats{2, 128'000, 2 * kOr + kR * 128'000}, IoStats{}});
  }
  // Memory for 100 rows of A (its 1000 bytes a row; the file takes none).
  const Model model(profile, disk_cluster(100'000));
  const Prediction in_core = model.predict(std::vector<std::int64_t>{100, 156});
  EXPECT_NEAR(in_core.ranks[0].io_s, (2 * (kOr + kOw) + (kR + kW) * 128 * kRowBytes) * 100 / 128, 1e-15);
  // Rank 1: A out of core in N_L = 2 ICLAs of 100 rows (Eq 1), and the file's 156 rows.
  const double file = (2 * (kOr + kOw) + (kR + kW) * 128 * kRowBytes) * 156 / 128;
  EXPECT_NEAR(in_core.ranks[1].io_s, file + 2 * kOr + kR * 156'000, 1e-15);
}

TEST(ProgramIo, AnotherClustersDiskScalesIt) {
  // Captured at I/O factor 2, predicted on a node of factor 4: twice the time.
  Profile profile = streaming_profile(false);
  for (RankProfile& rank : profile.ranks) rank.slowdown = Slowdown{1, 2};
  Cluster cluster = disk_cluster(1ull << 40);
  for (Node& n : cluster.nodes) n.slowdown = Slowdown{1, 4};
  const Model model(profile, cluster);
  const Prediction p = model.predict(std::vector<std::int64_t>{128, 128});
  EXPECT_NEAR(p.ranks[0].io_s, 2 * captured_io_s(), 1e-15);
}

TEST(ProgramIo, TheProfileSaysWhoseIoAVariableIs) {
  const Profile profile = streaming_profile(true);
  const Profile back = parse_profile(profile_to_json(profile).dump(), "round trip");
  EXPECT_EQ(back.variables[0].io, VariableIo::program_file);
  EXPECT_TRUE(back.variables[0].per_row);
  const std::string array = R"({"format": "mheta-profile/1", "iterations": 1, "global_rows": 2, "distribution": [2],
    "variables": [{"name": "A", "bytes_per_row": 8, "access": "read_only"}],
    "ranks": [{"memory_budget_bytes": 1, "sections": []}]})";
  EXPECT_EQ(parse_profile(array, "old").variables[0].io, VariableIo::out_of_core_array);
  std::string per_row_array = array;
  per_row_array.replace(per_row_array.find("\"access\""), 8, "\"per_row\": true, \"access\"");
  EXPECT_THROW(parse_profile(per_row_array, "bad"), FormatError);
  std::string unknown = array;
  unknown.replace(unknown.find("\"access\""), 8, "\"io\": \"tape\", \"access\"");
  EXPECT_THROW(parse_profile(unknown, "bad"), FormatError);
}

}  // namespace
}  // namespace mheta::model
