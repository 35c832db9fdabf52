// `mheta search` end to end: files in, best.txt out, and the exit codes of
// <mheta/exit_codes.hpp> on bad requests.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include <mheta/exit_codes.hpp>
#include "model/gen_block.hpp"
#include "model/model.hpp"
#include "tests/search/instances.hpp"

namespace mheta::search {
namespace {

namespace fs = std::filesystem;

struct CommandRun {
  int exit_code;
  std::string output;  // stdout and stderr
};

CommandRun run(const std::string& arguments) {
  const std::string command = std::string(MHETA_BINARY) + " search " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string output;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  const int status = pclose(pipe);
  return CommandRun{WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

class SearchCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("mheta-search-test-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const Instance& instance) {
    model::write_profile(dir_ / "profile.json", instance.profile);
    model::write_cluster(dir_ / "cluster.json", instance.cluster);
    return "--profile " + (dir_ / "profile.json").string() + " --cluster " + (dir_ / "cluster.json").string();
  }

  fs::path dir_;
};

TEST_F(SearchCommand, WritesTheDistributionFoundAndComparesTheCanonicalOnes) {
  const Instance i = testing::compute_only({1e-4, 2e-4, 4e-4}, 700, Pattern::neighbour);
  const fs::path best = dir_ / "best.txt";
  const CommandRun r = run(write(i) + " -o " + best.string());
  ASSERT_EQ(r.exit_code, kExitOk) << r.output;
  for (const char* word : {"Blk", "Bal", "I-C", "I-C/Bal", "found", "model evaluations"}) {
    EXPECT_NE(r.output.find(word), std::string::npos) << word << " in\n" << r.output;
  }
  const model::GenBlock dist = model::read_gen_block(best);
  EXPECT_EQ(dist.total_rows(), 700);
  // The file holds what the model rates best: no worse than Bal here.
  const model::Model m(i.profile, i.cluster);
  model::Workspace ws(m);
  const std::vector<std::int64_t> bal{400, 200, 100};
  EXPECT_LE(m.iteration_seconds(dist.rows, ws), m.iteration_seconds(bal, ws) * (1 + 1e-12));
}

TEST_F(SearchCommand, EveryMethodRuns) {
  const Instance i = testing::memory_limited({40, 20, 20}, 60);
  const std::string files = write(i);
  for (const char* method : {"gbs", "prophet", "prophet-h2", "exhaustive", "anneal", "genetic", "random"}) {
    const CommandRun r = run(files + " --method " + method + " --budget 200 -o " + (dir_ / "best.txt").string());
    EXPECT_EQ(r.exit_code, kExitOk) << method << "\n" << r.output;
    EXPECT_EQ(model::read_gen_block(dir_ / "best.txt").total_rows(), 60) << method;
  }
}

TEST_F(SearchCommand, ImpossibleMinRowsIsAUsageError) {
  const Instance i = testing::compute_only({1e-4, 1e-4, 1e-4}, 30);
  const CommandRun r = run(write(i) + " --min-rows 11 -o " + (dir_ / "best.txt").string());
  EXPECT_EQ(r.exit_code, kExitUsage) << r.output;
  EXPECT_NE(r.output.find("--min-rows 11 is impossible"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir_ / "best.txt"));
}

TEST_F(SearchCommand, NoNodeThatCanHoldARowIsBadInput) {
  Instance i = testing::compute_only({1e-4, 1e-4}, 30);
  for (model::Node& n : i.cluster.nodes) n.memory_bytes = 10;
  const CommandRun r = run(write(i) + " -o " + (dir_ / "best.txt").string());
  EXPECT_EQ(r.exit_code, kExitBadInput) << r.output;
  EXPECT_NE(r.output.find("no rank can hold the data"), std::string::npos) << r.output;
}

TEST_F(SearchCommand, UnknownMethodIsAUsageError) {
  const Instance i = testing::compute_only({1e-4, 1e-4}, 30);
  const CommandRun r = run(write(i) + " --method simplex -o " + (dir_ / "best.txt").string());
  EXPECT_EQ(r.exit_code, kExitUsage) << r.output;
  EXPECT_NE(r.output.find("simplex"), std::string::npos) << r.output;
}

TEST_F(SearchCommand, UnwritableOutputSaysSo) {
  const Instance i = testing::compute_only({1e-4, 1e-4}, 30);
  const CommandRun r = run(write(i) + " -o " + (dir_ / "no-such-dir" / "best.txt").string());
  EXPECT_EQ(r.exit_code, kExitCannotWrite) << r.output;
  EXPECT_NE(r.output.find("no-such-dir"), std::string::npos) << r.output;
}

TEST_F(SearchCommand, MissingProfileIsBadInput) {
  const CommandRun r = run("--profile " + (dir_ / "absent.json").string() + " --cluster " + (dir_ / "absent2.json").string());
  EXPECT_EQ(r.exit_code, kExitBadInput) << r.output;
  EXPECT_NE(r.output.find("absent.json"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace mheta::search
