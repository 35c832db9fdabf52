// The row weights file of MHETA_ROW_WEIGHTS and `mheta run --row-weights`.
#include "interpose/row_weights_file.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "model/format_error.hpp"

namespace mheta::interpose {
namespace {

model::FormatError error_of(const std::string& text) {
  try {
    parse_row_weights(text, "w.txt");
  } catch (const model::FormatError& error) {
    return error;
  }
  ADD_FAILURE() << "no error for: " << text;
  return model::FormatError("", "", "");
}

TEST(RowWeightsFile, OneWeightPerLineSkippingCommentsAndBlankLines) {
  EXPECT_EQ(parse_row_weights("# nonzeros, 4 rows\n3\n\n 17 \n0\n2.5e1", "w.txt"), (std::vector<double>{3, 17, 0, 25}));
  EXPECT_EQ(parse_row_weights("1\r\n2\r\n", "w.txt"), (std::vector<double>{1, 2}));
}

TEST(RowWeightsFile, AMalformedLineIsNamedWithItsNumber) {
  const auto bad = error_of("# header\n1\n2 3\n4\n");
  EXPECT_EQ(bad.file(), "w.txt");
  EXPECT_EQ(bad.where(), "line 3");
  EXPECT_NE(bad.reason().find("'2 3'"), std::string::npos) << bad.what();
  EXPECT_EQ(error_of("1\n-2\n").where(), "line 2");
  EXPECT_EQ(error_of("1\nnan\n").where(), "line 2");
  EXPECT_EQ(error_of("inf\n").where(), "line 1");
  EXPECT_EQ(error_of("1e999\n").where(), "line 1");
  EXPECT_EQ(error_of("1\nx\n").where(), "line 2");
}

TEST(RowWeightsFile, AFileWithoutWeightsIsAnError) {
  EXPECT_NE(std::string(error_of("# only a comment\n\n").what()).find("no weights"), std::string::npos);
}

TEST(RowWeightsFile, ReadsAFileAndNamesAMissingOne) {
  const std::string path = ::testing::TempDir() + "/row_weights_file_test.txt";
  std::ofstream(path) << "# 3 rows\n1\n4\n9\n";
  EXPECT_EQ(read_row_weights_file(path), (std::vector<double>{1, 4, 9}));
  std::remove(path.c_str());
  try {
    read_row_weights_file(path);
    ADD_FAILURE() << "a missing file was read";
  } catch (const model::FormatError& error) {
    EXPECT_EQ(error.file(), path);
  }
}

}  // namespace
}  // namespace mheta::interpose
