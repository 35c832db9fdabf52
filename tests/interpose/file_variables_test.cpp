#include "interpose/file_variables.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace mheta::interpose {
namespace {

// A handle of no real file: offset_step only keys on it.
MPI_File handle(std::uintptr_t n) { return reinterpret_cast<MPI_File>(n); }

// What detection knows an explicit-offset access by: its distance from the
// last access of the same file, and 0 for the file's first, wherever it is,
// so that every rank's first iteration of a loop writing its block once an
// iteration is like the next (rank 1's block is not at offset 0).
TEST(FileVariables, OffsetStepOfTheFirstAccessIsZeroWhereverItIs) {
  FileVariables files;
  const MPI_Offset block = 2 << 20;
  EXPECT_EQ(files.offset_step(handle(1), block), 0);
  EXPECT_EQ(files.offset_step(handle(1), block), 0);
  EXPECT_EQ(files.offset_step(handle(1), block), 0);
  // Another file has its own last access.
  EXPECT_EQ(files.offset_step(handle(2), 3 * block), 0);
  // Streaming a block through a buffer: a step each chunk, back to the
  // block's start once an iteration, the same calls every iteration.
  EXPECT_EQ(files.offset_step(handle(1), block + 4096), 4096);
  EXPECT_EQ(files.offset_step(handle(1), block + 8192), 4096);
  const int back = files.offset_step(handle(1), block);
  EXPECT_NE(back, 0);
  EXPECT_NE(back, 4096);
  EXPECT_EQ(files.offset_step(handle(1), block + 4096), 4096);
  EXPECT_EQ(files.offset_step(handle(1), block + 8192), 4096);
  EXPECT_EQ(files.offset_step(handle(1), block), back);
  // Closed and opened again: a first access again.
  files.close(handle(1));
  EXPECT_EQ(files.offset_step(handle(1), 5 * block), 0);
}

}  // namespace
}  // namespace mheta::interpose
