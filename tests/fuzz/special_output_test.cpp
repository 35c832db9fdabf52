// Output paths that are not regular files are written in place or refused,
// never replaced by the atomic rename (model/text_file.hpp). Never on /dev
// itself: FIFOs, links and (as root) a device node made in a temporary folder.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <string>

#include "model/text_file.hpp"

namespace mheta {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class SpecialOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("mheta-special-output-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  // Nothing but `expected` in the folder: no temporary file left behind.
  void expect_only(std::initializer_list<const char*> expected) {
    std::size_t count = 0;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      ++count;
      EXPECT_NE(std::find_if(expected.begin(), expected.end(),
                             [&](const char* name) { return entry.path().filename() == name; }),
                expected.end())
          << "left behind: " << entry.path();
    }
    EXPECT_EQ(count, expected.size());
  }
  fs::path dir_;
};

TEST_F(SpecialOutput, ARegularFileIsReplacedWhole) {
  const fs::path file = dir_ / "best.txt";
  std::ofstream(file) << "old contents, longer than the new\n";
  model::write_text_file_atomically(file, "new\n");
  EXPECT_EQ(contents(file), "new\n");
  expect_only({"best.txt"});
}

TEST_F(SpecialOutput, AFifoWithAReaderIsWrittenInPlace) {
  const fs::path fifo = dir_ / "out";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto reader = std::async(std::launch::async, [&] { return contents(fifo); });
  // The reader opens the FIFO at some point; until then there is nobody to write to.
  for (int attempt = 0;; ++attempt) {
    try {
      model::write_text_file_atomically(fifo, "through the pipe\n");
      break;
    } catch (const model::OutputError&) {
      ASSERT_LT(attempt, 500) << "the reader never opened the FIFO";
      ::usleep(10000);
    }
  }
  EXPECT_EQ(reader.get(), "through the pipe\n");
  EXPECT_TRUE(fs::is_fifo(fifo));
  expect_only({"out"});
}

TEST_F(SpecialOutput, AFifoNobodyReadsIsRefusedWithinSeconds) {
  const fs::path fifo = dir_ / "out";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  try {
    model::write_text_file_atomically(fifo, "nobody listens\n");
    FAIL() << "wrote to a FIFO with no reader";
  } catch (const model::OutputError& error) {
    EXPECT_NE(std::string(error.what()).find("FIFO that nobody reads"), std::string::npos) << error.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_TRUE(fs::is_fifo(fifo));
  expect_only({"out"});
}

TEST_F(SpecialOutput, ASymlinkStaysALinkAndItsFileIsReplaced) {
  const fs::path target = dir_ / "real.json";
  const fs::path link = dir_ / "link.json";
  std::ofstream(target) << "old\n";
  fs::create_symlink(target.filename(), link);
  model::write_text_file_atomically(link, "new\n");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(contents(target), "new\n");
  expect_only({"real.json", "link.json"});
}

TEST_F(SpecialOutput, ASymlinkToAFifoIsFollowedNotReplaced) {
  const fs::path fifo = dir_ / "fifo";
  const fs::path link = dir_ / "link";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::create_symlink(fifo, link);
  EXPECT_THROW(model::write_text_file_atomically(link, "x\n"), model::OutputError);  // nobody reads
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST_F(SpecialOutput, DanglingLinksAndDirectoriesAreRefused) {
  const fs::path dangling = dir_ / "dangling";
  fs::create_symlink(dir_ / "nowhere", dangling);
  EXPECT_THROW(model::write_text_file_atomically(dangling, "x\n"), model::OutputError);
  EXPECT_FALSE(fs::exists(dir_ / "nowhere"));
  const fs::path folder = dir_ / "folder";
  fs::create_directory(folder);
  EXPECT_THROW(model::write_text_file_atomically(folder, "x\n"), model::OutputError);
  EXPECT_TRUE(fs::is_directory(folder));
  expect_only({"dangling", "folder"});
}

TEST_F(SpecialOutput, ADeviceNodeIsWrittenInPlace) {
  if (::geteuid() != 0) GTEST_SKIP() << "making a device node needs root";
  // The null device's numbers, in a temporary folder: /dev is never touched.
  const fs::path null = dir_ / "null";
  ASSERT_EQ(::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)), 0);
  model::write_text_file_atomically(null, "discarded\n");
  struct stat info {};
  ASSERT_EQ(::stat(null.c_str(), &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode));
  EXPECT_EQ(info.st_rdev, makedev(1, 3));
  expect_only({"null"});
}

}  // namespace
}  // namespace mheta
