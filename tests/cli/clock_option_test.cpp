// --clock of `mheta run` and `mheta validate`: a bad value is
// one line and nothing runs; a good one reaches the program's environment
// as MHETA_CLOCK (what the interposer reads).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "command_runner.hpp"

namespace {

namespace fs = std::filesystem;
using mheta::testing::run_command;
using mheta::testing::slurp;

const std::string kMheta = MHETA_EXE;

class ClockOption : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("mheta-clock-test-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // Would leave a marker if it ever ran; with `-o FILE` it writes the
    // clock and emulation it was given into FILE (as mheta-microbench would
    // write its cluster).
    script_ = dir_ / "program.sh";
    std::ofstream(script_) << "#!/bin/sh\ntouch " << marker().string()
                           << "\nif [ \"$1\" = -o ]; then echo \"$MHETA_CLOCK $MHETA_EMULATE\" > \"$2\"; fi\n";
    fs::permissions(script_, fs::perms::owner_all);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path marker() const { return dir_ / "started"; }

  void expect_one_line_usage_error(const std::string& command) {
    const auto r = run_command(command);
    EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("--clock sundial: expected virtual or wall"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(marker())) << command << " started the program";
  }

  fs::path dir_;
  fs::path script_;
};

TEST_F(ClockOption, AnUnknownClockIsOneLineAndNothingRuns) {
  expect_one_line_usage_error(kMheta + " run -n 1 --capture off --clock sundial -- " + script_.string());
  expect_one_line_usage_error(kMheta + " validate -n 1 --clock sundial --app " + script_.string() + " -o " +
                              (dir_ / "results.json").string());
  EXPECT_FALSE(fs::exists(dir_ / "results-work"));
}

TEST_F(ClockOption, RunExportsTheClockToTheProgram) {
  const fs::path out = dir_ / "clock.txt";
  const auto r = run_command(kMheta + " run -n 1 --capture off --clock wall -- " + script_.string() + " -o " +
                             out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(slurp(out), "wall \n");
}

}  // namespace
