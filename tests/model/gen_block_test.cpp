#include "model/gen_block.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "model/format_error.hpp"

namespace mheta::model {
namespace {

// Parses and returns the error, failing the test if there was none.
FormatError parse_error(std::string_view text) {
  try {
    parse_gen_block(text, "dist.txt");
  } catch (const FormatError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for: " << text;
  return FormatError("", "", "");
}

TEST(GenBlock, ParsesNumbersWhitespaceAndComments) {
  const GenBlock d = parse_gen_block("# rows per rank\n10 20\n\t0  # an empty rank\n30\n", "dist.txt");
  EXPECT_EQ(d.rows, (std::vector<std::int64_t>{10, 20, 0, 30}));
  EXPECT_EQ(d.total_rows(), 60);
  EXPECT_EQ(d.first_row(3), 30);
}

TEST(GenBlock, NonIntegerNamesLineColumnAndRank) {
  const FormatError e = parse_error("10\n20 2.5\n");
  EXPECT_EQ(e.file(), "dist.txt");
  EXPECT_EQ(e.where(), "2:4");
  EXPECT_NE(e.reason().find("rank 2"), std::string::npos);
  EXPECT_NE(e.reason().find("2.5"), std::string::npos);
}

TEST(GenBlock, NegativeIsRejected) {
  const FormatError e = parse_error("10 -3");
  EXPECT_EQ(e.where(), "1:4");
  EXPECT_NE(e.reason().find("non-negative"), std::string::npos);
}

TEST(GenBlock, OverflowIsRejected) {
  const FormatError e = parse_error("99999999999999999999");
  EXPECT_NE(e.reason().find("too large"), std::string::npos);
}

TEST(GenBlock, SumOverflowIsRejected) {
  const FormatError e = parse_error("9223372036854775807 1");
  EXPECT_NE(e.reason().find("64 bits"), std::string::npos);
}

TEST(GenBlock, EmptyFileIsRejected) {
  const FormatError e = parse_error("# nothing here\n\n");
  EXPECT_NE(e.reason().find("no row counts"), std::string::npos);
}

TEST(GenBlock, WrongRankCountAndWrongSumAreRejected) {
  const GenBlock d = parse_gen_block("10 20 30", "d.txt");
  EXPECT_NO_THROW(check_gen_block(d, 3, 60, "d.txt"));
  try {
    check_gen_block(d, 4, 60, "d.txt");
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(e.reason().find("3 row counts"), std::string::npos);
    EXPECT_NE(e.reason().find("4 ranks"), std::string::npos);
  }
  try {
    check_gen_block(d, 3, 61, "d.txt");
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_NE(e.reason().find("add up to 60"), std::string::npos);
    EXPECT_NE(e.reason().find("61"), std::string::npos);
  }
}

TEST(GenBlock, BlockDistributionGivesRemainderToFirstRanks) {
  EXPECT_EQ(block_distribution(10, 4).rows, (std::vector<std::int64_t>{3, 3, 2, 2}));
  EXPECT_EQ(block_distribution(8, 4).rows, (std::vector<std::int64_t>{2, 2, 2, 2}));
}

TEST(GenBlock, NeighboursSkipEmptyRanks) {
  const std::vector<std::int64_t> rows{5, 0, 0, 7, 0};
  EXPECT_EQ(next_rank_with_rows(rows, 0, +1), 3);
  EXPECT_EQ(next_rank_with_rows(rows, 3, -1), 0);
  EXPECT_EQ(next_rank_with_rows(rows, 3, +1), -1);
  EXPECT_EQ(next_rank_with_rows(rows, 0, -1), -1);
}

TEST(GenBlock, WriteThenReadRoundTrips) {
  const auto path = std::filesystem::temp_directory_path() / "mheta-gen-block-test.txt";
  const GenBlock d{{4, 0, 9}};
  write_gen_block(path, d);
  EXPECT_EQ(read_gen_block(path), d);
  std::filesystem::remove(path);
}

TEST(GenBlock, MissingFileNamesTheFile) {
  try {
    read_gen_block("/nonexistent/dist.txt");
    FAIL();
  } catch (const FormatError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/dist.txt");
    EXPECT_NE(e.reason().find("cannot open"), std::string::npos);
  }
}

}  // namespace
}  // namespace mheta::model
