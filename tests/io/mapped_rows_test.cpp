#include "io/mapped_rows.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "tests/io/test_dir.hpp"

namespace mheta::io {
namespace {

using testing::fresh_test_dir;

const RowShape kShape{"m", ElementType::f64, 3};
const model::GenBlock kDist{{4, 0, 9}};

TEST(MappedRows, SeesTheRowsAsWrittenFromAnyLocalRow) {
  const auto dir = fresh_test_dir();
  std::vector<double> values(9 * 3);
  std::iota(values.begin(), values.end(), 100.0);
  {
    LocalArray block = LocalArray::create(dir, kShape, kDist, 2);
    block.write_rows(0, 9, values.data());
  }
  const LocalArray block = LocalArray::open(dir, kShape, kDist, 2);
  const MappedRows rows(block);
  std::vector<double> seen(4 * 3);
  std::memcpy(seen.data(), rows.rows(5), seen.size() * sizeof(double));
  EXPECT_EQ(seen, std::vector<double>(values.begin() + 15, values.end()));
  // A write after the mapping shows through it: it is the file's bytes, not a copy.
  const std::vector<double> sevens(3, 7.0);
  LocalArray writer = LocalArray::open(dir, kShape, kDist, 2);
  writer.write_rows(8, 1, sevens.data());
  std::memcpy(seen.data(), rows.rows(8), 3 * sizeof(double));
  EXPECT_EQ(std::vector<double>(seen.begin(), seen.begin() + 3), sevens);
}

TEST(MappedRows, ARowOutsideTheBlockIsAnErrorNamingTheFile) {
  const auto dir = fresh_test_dir();
  { LocalArray::create(dir, kShape, kDist, 0); }
  const MappedRows rows(LocalArray::open(dir, kShape, kDist, 0));
  EXPECT_NE(rows.rows(4), nullptr);  // one past the last row: the end of a range
  try {
    (void)rows.rows(5);
    ADD_FAILURE() << "no error for local row 5 of a block of 4 rows";
  } catch (const LocalArrayError& e) {
    EXPECT_NE(std::string(e.what()).find("m.0.h5: local row 5 outside the block's 4 rows"), std::string::npos)
        << e.what();
  }
}

TEST(MappedRows, ABlockWithoutRowsMapsNothing) {
  const auto dir = fresh_test_dir();
  { LocalArray::create(dir, kShape, kDist, 1); }
  const MappedRows rows(LocalArray::open(dir, kShape, kDist, 1));
  EXPECT_EQ(rows.rows(0), nullptr);
}

}  // namespace
}  // namespace mheta::io
