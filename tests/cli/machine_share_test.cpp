// The machine's share of `mheta validate`'s summary (docs/validate.md, "The
// machine's share"): how much of the measured iterations the ranks waited
// for a core, under the wall clock.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <unistd.h>

#include "cli/validation_results.hpp"

namespace mheta::cli {
namespace {

ValidationRun run_queued(std::optional<double> share) {
  ValidationRun run;
  run.actual_s = 0.01;
  run.check = "PASS";
  run.queued_share = share;
  return run;
}

ValidationEntry entry(const std::string& name, std::vector<ValidationRun> runs) {
  ValidationEntry e;
  e.name = name;
  e.kind = "spectrum";
  e.rows = {100, 100};
  e.predicted_s = 0.01;
  e.prediction = model::Json::object();
  e.runs = std::move(runs);
  return e;
}

// Blk's runs waited 2, 30 and 4 % (median 4 %), Bal's 10 and 12 % (median
// 11 %): the summary's share is the larger median, 11 %; one run's 30 % is
// a moment of the machine, not the distribution's.
ValidationResults two_distributions() {
  ValidationResults results;
  results.settings = model::Json::object();
  results.entries.push_back(entry("Blk", {run_queued(0.02), run_queued(0.30), run_queued(0.04)}));
  results.entries.push_back(entry("Bal", {run_queued(0.10), run_queued(0.12)}));
  return results;
}

TEST(MachineShare, IsTheLargestDistributionsMedianOverItsRuns) {
  const ValidationSummary s = summarize(two_distributions());
  ASSERT_TRUE(s.machine_share);
  EXPECT_NEAR(*s.machine_share, 0.11, 1e-12);
}

TEST(MachineShare, NoneWithoutRunQueueFigures) {
  ValidationResults results = two_distributions();
  for (ValidationEntry& e : results.entries) {
    for (ValidationRun& r : e.runs) r.queued_share.reset();
  }
  EXPECT_FALSE(summarize(results).machine_share);
  EXPECT_FALSE(validation_to_json(results)["summary"].contains("machine_share"));
}

TEST(MachineShare, SurvivesTheResultsFile) {
  const ValidationResults results = two_distributions();
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("machine-share-" + std::to_string(::getpid()) + ".json");
  write_validation_results(path, results);
  const ValidationResults back = read_validation_results(path);
  std::filesystem::remove(path);
  ASSERT_TRUE(back.entries[0].runs[1].queued_share);
  EXPECT_DOUBLE_EQ(*back.entries[0].runs[1].queued_share, 0.30);
  EXPECT_DOUBLE_EQ(validation_to_json(back)["summary"]["machine_share"].get<double>(), 0.11);
}

}  // namespace
}  // namespace mheta::cli
