// `mheta predict` as a user runs it: on the bundled example, with --json,
// and with each kind of bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "command_runner.hpp"

namespace {

using mheta::testing::run_command;
using nlohmann::json;

const std::string kMheta = MHETA_EXE;
const std::string kJacobi = std::string(EXAMPLES_DIR) + "/jacobi-hy1";

std::string predict(const std::string& args) {
  return kMheta + " predict " + args + " --profile " + kJacobi + "/profile.json --cluster " + kJacobi +
         "/cluster.json";
}

std::filesystem::path write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("mheta-predict-test-" + name);
  std::ofstream(path) << text;
  return path;
}

TEST(PredictCommand, PrintsTheRunAndOneLinePerRankWithTheSlowestMarked) {
  const auto r = run_command(predict(kJacobi + "/blk.txt"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("predicted iteration"), std::string::npos);
  EXPECT_NE(r.out.find("(100 iterations)"), std::string::npos);
  int rank_lines = 0;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("   1024  ") != std::string::npos || line.find("  1024  ") != std::string::npos) ++rank_lines;
  }
  EXPECT_EQ(rank_lines, 8);
  EXPECT_NE(r.out.find("<- slowest"), std::string::npos);
}

TEST(PredictCommand, JsonBreakdownOfAnOutOfCoreRankIsEq1OfTheCluster) {
  const auto r = run_command(predict(kJacobi + "/blk.txt --json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  std::ifstream cluster_file(kJacobi + "/cluster.json");
  const json cluster = json::parse(cluster_file);
  // Rank 4: 1024 rows of A and B (32 KiB a row) in 16 MiB: ICLAs of 256
  // rows, N_L = 4; A is read and B written once per iteration (Eq 1).
  const json& disk = cluster["nodes"][4]["disk"];
  const double bytes = 1024.0 * 32768;
  const double eq1 = 4 * disk["read_overhead_s"].get<double>() + disk["read_s_per_byte"].get<double>() * bytes +
                     4 * disk["write_overhead_s"].get<double>() + disk["write_s_per_byte"].get<double>() * bytes;
  const json& rank4 = out["ranks"][4];
  EXPECT_FALSE(rank4["in_core"].get<bool>());
  EXPECT_EQ(rank4["chunks"].get<int>(), 4);
  EXPECT_NEAR(rank4["io_s"].get<double>(), eq1, 1e-12);
  EXPECT_TRUE(out["ranks"][0]["in_core"].get<bool>());
  EXPECT_DOUBLE_EQ(out["run_s"].get<double>(), 100 * out["iteration_s"].get<double>());
  double slowest = 0;
  for (const json& rank : out["ranks"]) slowest = std::max(slowest, rank["total_s"].get<double>());
  EXPECT_DOUBLE_EQ(out["iteration_s"].get<double>(), slowest);
}

TEST(PredictCommand, IterationsOptionScalesTheRun) {
  const auto r = run_command(predict(kJacobi + "/blk.txt --json --iterations 7"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json out = json::parse(r.out);
  EXPECT_DOUBLE_EQ(out["run_s"].get<double>(), 7 * out["iteration_s"].get<double>());
}

TEST(PredictCommand, DistributionForAnotherRankCountIsBadInput) {
  const auto dist = write_temp("ranks.txt", "4096 4096\n");
  const auto r = run_command(predict(dist.string()));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find(dist.string()), std::string::npos);
  EXPECT_NE(r.err.find("8 ranks"), std::string::npos);
}

TEST(PredictCommand, MalformedDistributionNamesLineAndColumn) {
  const auto dist = write_temp("malformed.txt", "1024 1024\n1024 x\n");
  const auto r = run_command(predict(dist.string()));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find(dist.string() + ":2:6"), std::string::npos) << r.err;
}

TEST(PredictCommand, MissingProfileNamesTheFile) {
  const auto r = run_command(kMheta + " predict " + kJacobi + "/blk.txt --profile /nonexistent/p.json --cluster " +
                             kJacobi + "/cluster.json");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("/nonexistent/p.json"), std::string::npos);
}

TEST(PredictCommand, ClusterOfAnotherSizeCannotBeModelled) {
  const auto r = run_command(kMheta + " predict " + std::string(EXAMPLES_DIR) + "/rna-pipeline/blk.txt --profile " +
                             EXAMPLES_DIR + "/rna-pipeline/profile.json --cluster " + kJacobi + "/cluster.json");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("8 nodes"), std::string::npos) << r.err;
}

TEST(PredictCommand, UnknownOptionIsAUsageError) {
  const auto r = run_command(kMheta + " predict --frobnicate");
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
