// `mheta predict` prices compute by the work of the rows a rank gets, when
// the profile has row_weights (docs/model.md: T_Φ' = T_Φ · W'/W), on the
// bundled jacobi example (8 ranks, Blk of 8192 rows when instrumented).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "command_runner.hpp"

namespace {

using mheta::testing::run_command;
using nlohmann::json;

const std::string kMheta = MHETA_EXE;
const std::string kJacobi = std::string(EXAMPLES_DIR) + "/jacobi-hy1";

// The example's profile with `weights` (none when empty), in a temporary file.
std::string profile_with(const std::vector<double>& weights, const std::string& name) {
  std::ifstream in(kJacobi + "/profile.json");
  json profile = json::parse(in);
  if (!weights.empty()) profile["row_weights"] = weights;
  const auto path = std::filesystem::temp_directory_path() /
                    ("mheta-row-weights-test-" + std::to_string(::getpid()) + "-" + name + ".json");
  std::ofstream(path) << profile.dump();
  return path.string();
}

json predict(const std::string& profile, const std::string& dist) {
  const auto r = run_command(kMheta + " predict " + kJacobi + "/" + dist + " --json --profile " + profile +
                             " --cluster " + kJacobi + "/cluster.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json::object();
}

double compute_of(const json& prediction, int rank) { return prediction["ranks"][rank]["compute_s"].get<double>(); }

TEST(PredictRowWeights, SkewedWeightsChangeThePriceOfTheSameRowCounts) {
  constexpr std::size_t kRows = 8192;
  const std::string none = profile_with({}, "none");
  const std::string uniform = profile_with(std::vector<double>(kRows, 1.0), "uniform");
  // Rank 0 owned rows 0..1023 when instrumented; its first 512 weigh 4.
  std::vector<double> skewed(kRows, 1.0);
  for (std::size_t i = 0; i < 512; ++i) skewed[i] = 4.0;
  const std::string heavy = profile_with(skewed, "skewed");

  // better.txt gives rank 0 rows 0..1432 and rank 1 rows 1433..2148.
  const json plain = predict(none, "better.txt");
  const json even = predict(uniform, "better.txt");
  const json weighted = predict(heavy, "better.txt");
  ASSERT_TRUE(plain.contains("ranks") && even.contains("ranks") && weighted.contains("ranks"));
  // Uniform weights are row counts: the same prediction.
  EXPECT_DOUBLE_EQ(even["iteration_s"].get<double>(), plain["iteration_s"].get<double>());
  for (int r = 0; r < 8; ++r) EXPECT_DOUBLE_EQ(compute_of(even, r), compute_of(plain, r)) << "rank " << r;
  // Same row counts, different work: rank 0 had work 512*4 + 512 = 2560 and
  // gets 512*4 + 921 = 2969, not 1433/1024 of its compute.
  EXPECT_NEAR(compute_of(weighted, 0) / compute_of(plain, 0), (2969.0 / 2560.0) / (1433.0 / 1024.0), 1e-9);
  // Rank 1's old and new rows all weigh 1 (work 1024, then 716): unchanged.
  EXPECT_NEAR(compute_of(weighted, 1), compute_of(plain, 1), 1e-12 * compute_of(plain, 1));
  // Predicting the distribution it was instrumented with is the measurement, weights or not.
  EXPECT_DOUBLE_EQ(compute_of(predict(heavy, "blk.txt"), 0), compute_of(predict(none, "blk.txt"), 0));
  for (const std::string& p : {none, uniform, heavy}) std::filesystem::remove(p);
}

}  // namespace
