#include "io/local_array.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>

#include <csignal>
#include <fstream>
#include <numeric>
#include <vector>

#include "tests/io/mpi_file_recorder.hpp"
#include "tests/io/test_dir.hpp"

namespace mheta::io {
namespace {

using testing::fresh_test_dir;
using testing::recorder;

const RowShape kShape{"a", ElementType::f64, 5};
const model::GenBlock kDist{{7, 0, 12}};

std::vector<double> rows_of(std::int64_t first_global, std::int64_t count) {
  std::vector<double> values(static_cast<std::size_t>(count * kShape.elements_per_row));
  std::iota(values.begin(), values.end(), static_cast<double>(first_global * kShape.elements_per_row));
  return values;
}

// Rank 2's block (global rows 7..18), filled with consecutive numbers.
LocalArray filled_block(const std::filesystem::path& dir) {
  LocalArray array = LocalArray::create(dir, kShape, kDist, 2);
  const auto values = rows_of(7, 12);
  array.write_rows(0, 12, values.data());
  return array;
}

void expect_error_containing(const std::function<void()>& step, const std::string& part) {
  try {
    step();
    ADD_FAILURE() << "no error; expected one containing '" << part << "'";
  } catch (const LocalArrayError& e) {
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(LocalArray, RowsWrittenAreReadBackFromAnyRange) {
  const auto dir = fresh_test_dir();
  { filled_block(dir); }
  LocalArray array = LocalArray::open(dir, kShape, kDist, 2);
  EXPECT_EQ(array.first_row(), 7);
  EXPECT_EQ(array.local_rows(), 12);
  EXPECT_EQ(array.global_rows(), 19);
  EXPECT_EQ(array.path(), dir / "a.2.h5");
  std::vector<double> middle(4 * 5);
  array.read_rows(3, 4, middle.data());
  EXPECT_EQ(middle, rows_of(10, 4));
  // Rewriting a range changes that range only.
  const std::vector<double> twos(2 * 5, 2.0);
  array.write_rows(10, 2, twos.data());
  std::vector<double> all(12 * 5);
  array.read_rows(0, 12, all.data());
  EXPECT_EQ(std::vector<double>(all.begin(), all.begin() + 50), rows_of(7, 10));
  EXPECT_EQ(std::vector<double>(all.begin() + 50, all.end()), twos);
}

TEST(LocalArray, ZeroRowBlockOpensAndHoldsNothing) {
  const auto dir = fresh_test_dir();
  { LocalArray::create(dir, kShape, kDist, 1); }
  LocalArray array = LocalArray::open(dir, kShape, kDist, 1);
  EXPECT_EQ(array.local_rows(), 0);
  EXPECT_EQ(array.first_row(), 7);
  array.read_rows(0, 0, nullptr);
  EXPECT_THROW(array.read_rows(0, 1, nullptr), LocalArrayError);
}

TEST(LocalArray, MissingFileIsNamed) {
  const auto dir = fresh_test_dir();
  expect_error_containing([&] { LocalArray::open(dir, kShape, kDist, 2); }, (dir / "a.2.h5").string() + ": missing");
}

TEST(LocalArray, TruncatedFileIsNamed) {
  const auto dir = fresh_test_dir();
  { filled_block(dir); }
  const auto path = dir / "a.2.h5";
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 100);
  expect_error_containing([&] { LocalArray::open(dir, kShape, kDist, 2); }, path.string() + ": ");
}

TEST(LocalArray, NotAnHdf5FileIsNamed) {
  const auto dir = fresh_test_dir();
  std::ofstream(dir / "a.2.h5") << "rows, but not HDF5\n";
  expect_error_containing([&] { LocalArray::open(dir, kShape, kDist, 2); }, "a.2.h5: is not a readable HDF5 file");
}

TEST(LocalArray, FileOfAnotherVariableIsRefused) {
  const auto dir = fresh_test_dir();
  RowShape other = kShape;
  other.variable = "b";
  { LocalArray::create(dir, other, kDist, 2); }
  std::filesystem::rename(dir / "b.2.h5", dir / "a.2.h5");
  expect_error_containing([&] { LocalArray::open(dir, kShape, kDist, 2); }, "holds variable 'b', expected 'a'");
}

TEST(LocalArray, OtherDistributionIsRefused) {
  const auto dir = fresh_test_dir();
  { filled_block(dir); }
  expect_error_containing(
      [&] {
        LocalArray::open(dir, kShape, model::GenBlock{{6, 1, 12}}, 2);
      },
      "was written for the distribution [7 0 12] but this run uses [6 1 12]");
}

TEST(LocalArray, OtherRowShapeIsRefused) {
  const auto dir = fresh_test_dir();
  { filled_block(dir); }
  expect_error_containing(
      [&] {
        LocalArray::open(dir, {"a", ElementType::f64, 6}, kDist, 2);
      },
      "rows hold 5 elements but this run expects 6");
  expect_error_containing(
      [&] {
        LocalArray::open(dir, {"a", ElementType::i64, 5}, kDist, 2);
      },
      "holds 64-bit floats, expected 64-bit integers");
}

TEST(LocalArray, RowsOutsideTheBlockAreRefused) {
  const auto dir = fresh_test_dir();
  LocalArray array = filled_block(dir);
  std::vector<double> buffer(13 * 5);
  EXPECT_THROW(array.read_rows(10, 3, buffer.data()), LocalArrayError);
  EXPECT_THROW(array.write_rows(-1, 1, buffer.data()), LocalArrayError);
}

// A disk that cannot take the new file's metadata (here a file size limit,
// EFBIG as a full disk gives ENOSPC): creating throws an error naming the
// file, and nothing is left that crashes the process later. HDF5 1.10,
// writing its metadata itself at H5Fclose, failed there and left a half
// freed file that MPI_Finalize crashed on (io/file_image.hpp).
TEST(LocalArray, CreateOnADiskThatCannotTakeTheMetadataFailsCleanly) {
  const auto dir = fresh_test_dir();
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit old_limit{};
  getrlimit(RLIMIT_FSIZE, &old_limit);
  rlimit limit = old_limit;
  limit.rlim_cur = 512;
  setrlimit(RLIMIT_FSIZE, &limit);
  expect_error_containing([&] { LocalArray::create(dir, kShape, kDist, 2); }, (dir / "a.2.h5").string() + ": ");
  setrlimit(RLIMIT_FSIZE, &old_limit);
  std::signal(SIGXFSZ, old_handler);
  // HDF5 holds nothing of the failed file: the same block can be created,
  // written and read back.
  filled_block(dir);
  LocalArray array = LocalArray::open(dir, kShape, kDist, 2);
  std::vector<double> read(12 * 5);
  array.read_rows(0, 12, read.data());
  EXPECT_EQ(read, rows_of(7, 12));
}

TEST(LocalArray, EveryOpenOfTheFileNamesTheVariable) {
  const auto dir = fresh_test_dir();
  recorder().clear();
  { filled_block(dir); }
  { LocalArray::open(dir, kShape, kDist, 2); }
  // Ours at create (which writes the metadata HDF5 built in memory), HDF5's
  // open for the metadata, and ours after it.
  ASSERT_GE(recorder().opens.size(), 3u);
  for (const auto& open : recorder().opens) {
    EXPECT_EQ(open.filename, (dir / "a.2.h5").string());
    EXPECT_EQ(open.variable, "a");
    EXPECT_EQ(open.bytes_per_row, "40");
  }
}

TEST(LocalArray, ARowRangeIsOneMpiIoCallOfItsBytes) {
  const auto dir = fresh_test_dir();
  LocalArray array = filled_block(dir);
  std::vector<double> buffer(4 * 5);
  recorder().clear();
  array.read_rows(3, 4, buffer.data());
  array.write_rows(5, 2, buffer.data());
  MPI_Request request = array.start_read_rows(1, 3, buffer.data());
  LocalArray::wait(request);
  ASSERT_EQ(recorder().accesses.size(), 3u);
  const auto& read = recorder().accesses[0];
  const auto& write = recorder().accesses[1];
  const auto& iread = recorder().accesses[2];
  EXPECT_EQ(read.call, "read_at");
  EXPECT_EQ(write.call, "write_at");
  EXPECT_EQ(iread.call, "iread_at");
  EXPECT_EQ(read.variable, "a");
  EXPECT_EQ(read.bytes, 4 * 40);
  EXPECT_EQ(write.bytes, 2 * 40);
  EXPECT_EQ(iread.bytes, 3 * 40);
  // Offsets of one contiguous dataset: 40 bytes per row apart.
  EXPECT_EQ(write.offset - read.offset, 2 * 40);
  EXPECT_EQ(read.offset - iread.offset, 2 * 40);
}

}  // namespace
}  // namespace mheta::io
