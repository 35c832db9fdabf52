// The capture drift of `mheta validate`'s summary (docs/validate.md,
// "Capture drift"): the capture runs' compute against the Blk runs'.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

#include "cli/validation_results.hpp"

namespace mheta::cli {
namespace {

ValidationRun run_with_compute(double rank0_s, double rank1_s) {
  ValidationRun run;
  run.actual_s = 0.01;
  run.check = "PASS";
  run.ranks = {{rank0_s, 0, 0, 0, rank0_s}, {rank1_s, 0, 0, 0, rank1_s}};
  return run;
}

ValidationResults blk_measured_twice() {
  ValidationResults results;
  ValidationEntry blk;
  blk.name = "Blk";
  blk.kind = "spectrum";
  blk.rows = {100, 100};
  blk.predicted_s = 0.01;
  blk.prediction = model::Json::object();
  // Rank 0: 1.0 and 1.2 ms, median 1.1; rank 1: 2.0 and 2.4 ms, median 2.2.
  blk.runs = {run_with_compute(1.0e-3, 2.0e-3), run_with_compute(1.2e-3, 2.4e-3)};
  results.entries.push_back(blk);
  return results;
}

TEST(CaptureDrift, IsTheMedianOverRanksOfCapturedOverMeasuredCompute) {
  ValidationResults results = blk_measured_twice();
  // Captured 1.43 and 2.42 ms: 1.43 / 1.1 - 1 = 0.30 and 2.42 / 2.2 - 1 = 0.10,
  // whose median (the mean of the two) is 0.20.
  results.captured_ranks = {{1.43e-3, 0, 0, 0, 1.43e-3}, {2.42e-3, 0, 0, 0, 2.42e-3}};
  const ValidationSummary s = summarize(results);
  ASSERT_TRUE(s.capture_drift);
  EXPECT_NEAR(*s.capture_drift, 0.20, 1e-12);
}

TEST(CaptureDrift, NeedsTheCapturesRecordsAndAMeasuredBlk) {
  ValidationResults results = blk_measured_twice();
  EXPECT_FALSE(summarize(results).capture_drift);  // no records of the captures
  results.captured_ranks = {{1e-3, 0, 0, 0, 1e-3}, {2e-3, 0, 0, 0, 2e-3}};
  results.entries.front().name = "GBS";
  EXPECT_FALSE(summarize(results).capture_drift);  // the capture ran under Blk: nothing to compare with
}

TEST(CaptureDrift, TheCapturesTermsSurviveTheResultsFile) {
  ValidationResults results = blk_measured_twice();
  results.settings = model::Json::object();
  results.captured_ranks = {{1.5e-3, 2e-4, 0, 1e-4, 1.8e-3}, {2.5e-3, 0, 3e-5, 0, 2.53e-3}};
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("capture-drift-" + std::to_string(::getpid()) + ".json");
  write_validation_results(path, results);
  const ValidationResults back = read_validation_results(path);
  std::filesystem::remove(path);
  ASSERT_EQ(back.captured_ranks.size(), 2u);
  EXPECT_DOUBLE_EQ(back.captured_ranks[0].io_s, 2e-4);
  EXPECT_DOUBLE_EQ(back.captured_ranks[1].comm_s, 3e-5);
  EXPECT_DOUBLE_EQ(*summarize(back).capture_drift, *summarize(results).capture_drift);
  EXPECT_EQ(validation_to_json(back)["summary"]["capture_drift"], validation_to_json(results)["summary"]["capture_drift"]);
}

}  // namespace
}  // namespace mheta::cli
