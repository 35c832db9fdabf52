// The manifest and the recovery it drives, on files alone (no MPI): what a
// restart finds for each state a crash can leave.
#include "io/manifest.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "io/redistribution_recovery.hpp"
#include "model/format_error.hpp"

namespace mheta::io {
namespace {

namespace fs = std::filesystem;

class ManifestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("mheta-manifest-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static void touch(const fs::path& path, const std::string& text) {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }
  static std::string contents(const fs::path& path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  Manifest manifest(ManifestState state) const {
    return Manifest{state,
                    model::GenBlock{{3, 1}},
                    model::GenBlock{{1, 3}},
                    {{"u", ElementType::f64, 8}, {"w", ElementType::u8, 5}}};
  }
  // Old blocks in place, new blocks staged: every file names which it is.
  void lay_out_both() const {
    for (const char* v : {"u", "w"}) {
      for (int r = 0; r < 2; ++r) {
        touch(local_array_path(dir_, v, r), "old");
        touch(local_array_path(staging_dir(dir_), v, r), "new");
      }
    }
  }

  fs::path dir_;
};

TEST_F(ManifestTest, RoundTripsEveryField) {
  write_manifest(dir_, manifest(ManifestState::committed));
  const auto back = read_manifest(dir_);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->state, ManifestState::committed);
  EXPECT_EQ(back->from.rows, (std::vector<std::int64_t>{3, 1}));
  EXPECT_EQ(back->to.rows, (std::vector<std::int64_t>{1, 3}));
  ASSERT_EQ(back->variables.size(), 2u);
  EXPECT_EQ(back->variables[1].variable, "w");
  EXPECT_EQ(back->variables[1].element, ElementType::u8);
  EXPECT_EQ(back->variables[1].elements_per_row, 5);
}

TEST_F(ManifestTest, MalformedManifestNamesTheFileAndField) {
  touch(manifest_path(dir_), R"({"format":"mheta-manifest/1","state":"halfway","from":[1],"to":[1],"variables":[]})");
  try {
    read_manifest(dir_);
    FAIL() << "no error";
  } catch (const model::FormatError& e) {
    EXPECT_EQ(e.file(), manifest_path(dir_).string());
    EXPECT_NE(std::string(e.what()).find("halfway"), std::string::npos) << e.what();
  }
}

TEST_F(ManifestTest, NoManifestMeansNeverRedistributed) {
  touch(local_array_path(staging_dir(dir_), "u", 0), "stray");
  const Recovery r = recover_data_dir(dir_);
  EXPECT_EQ(r.outcome, RecoveryOutcome::never_redistributed);
  EXPECT_FALSE(r.dist.has_value());
  EXPECT_FALSE(fs::exists(staging_dir(dir_)));
}

TEST_F(ManifestTest, PreparedRollsBackToTheOldBlocks) {
  lay_out_both();
  write_manifest(dir_, manifest(ManifestState::prepared));
  const Recovery r = recover_data_dir(dir_);
  EXPECT_EQ(r.outcome, RecoveryOutcome::rolled_back);
  EXPECT_EQ(r.dist->rows, (std::vector<std::int64_t>{3, 1}));
  EXPECT_NE(r.message.find("complete in the old distribution [3 1]"), std::string::npos) << r.message;
  EXPECT_EQ(contents(local_array_path(dir_, "w", 1)), "old");
  EXPECT_FALSE(fs::exists(staging_dir(dir_)));
  EXPECT_EQ(read_manifest(dir_)->state, ManifestState::complete);
  EXPECT_EQ(recover_data_dir(dir_).outcome, RecoveryOutcome::complete);
}

TEST_F(ManifestTest, CommittedRollsForwardEvenWhenPartlySwitched) {
  lay_out_both();
  // Rank 0 had switched its block of u before the crash.
  fs::rename(local_array_path(staging_dir(dir_), "u", 0), local_array_path(dir_, "u", 0));
  write_manifest(dir_, manifest(ManifestState::committed));
  const Recovery r = recover_data_dir(dir_);
  EXPECT_EQ(r.outcome, RecoveryOutcome::rolled_forward);
  EXPECT_EQ(r.dist->rows, (std::vector<std::int64_t>{1, 3}));
  for (const char* v : {"u", "w"}) {
    for (int rank = 0; rank < 2; ++rank) EXPECT_EQ(contents(local_array_path(dir_, v, rank)), "new") << v << rank;
  }
  EXPECT_FALSE(fs::exists(staging_dir(dir_)));
  const auto after = read_manifest(dir_);
  EXPECT_EQ(after->state, ManifestState::complete);
  EXPECT_EQ(after->to.rows, (std::vector<std::int64_t>{1, 3}));
}

TEST_F(ManifestTest, MissingOldBlockIsAnErrorNamingIt) {
  lay_out_both();
  fs::remove(local_array_path(dir_, "w", 1));
  write_manifest(dir_, manifest(ManifestState::prepared));
  try {
    recover_data_dir(dir_);
    FAIL() << "no error";
  } catch (const LocalArrayError& e) {
    EXPECT_NE(std::string(e.what()).find("w.1.h5"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mheta::io
