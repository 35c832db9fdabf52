#include "microbench/memory_probe.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

namespace mheta::microbench {
namespace {

TEST(MemoryProbe, TheEmulatedBudgetWins) {
  setenv("MHETA_MEMORY_BYTES", "123456789", 1);
  const MemoryProbe probe = probe_memory(4);
  unsetenv("MHETA_MEMORY_BYTES");
  EXPECT_EQ(probe.bytes, 123456789u);
  EXPECT_NE(probe.source.find("MHETA_MEMORY_BYTES"), std::string::npos);
}

TEST(MemoryProbe, RanksOnANodeShareItsMemory) {
  unsetenv("MHETA_MEMORY_BYTES");
  const MemoryProbe one = probe_memory(1);
  const MemoryProbe four = probe_memory(4);
  ASSERT_GT(one.bytes, 0u) << one.source;
  // MemAvailable moves while other programs run: compare loosely.
  EXPECT_NEAR(static_cast<double>(four.bytes) * 4 / static_cast<double>(one.bytes), 1.0, 0.2);
  EXPECT_NE(four.source.find("4 rank"), std::string::npos);
}

}  // namespace
}  // namespace mheta::microbench
