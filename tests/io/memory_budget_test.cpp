#include "io/memory_budget.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>

namespace mheta::io {
namespace {

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old, had_ = true;
    if (value)
      setenv(name, value, 1);
    else
      unsetenv(name);
  }
  ~ScopedEnv() {
    if (had_)
      setenv(name_, old_.c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  std::string old_;
  bool had_ = false;
};

TEST(MemoryBudget, ParsesByteCountsWithBinarySuffixes) {
  EXPECT_EQ(parse_byte_count("1048576"), 1048576u);
  EXPECT_EQ(parse_byte_count("64K"), 64u * 1024);
  EXPECT_EQ(parse_byte_count("3m"), 3u << 20);
  EXPECT_EQ(parse_byte_count("2G"), 2ull << 30);
  EXPECT_FALSE(parse_byte_count(""));
  EXPECT_FALSE(parse_byte_count("12 M"));
  EXPECT_FALSE(parse_byte_count("-5"));
  EXPECT_FALSE(parse_byte_count("5T"));
  EXPECT_FALSE(parse_byte_count("99999999999999999999"));
}

TEST(MemoryBudget, EnvironmentBudgetIsPerRankAndWins) {
  ScopedEnv env("MHETA_MEMORY_BYTES", "256K");
  const MemoryBudget budget = memory_budget(4);
  EXPECT_EQ(budget.bytes, 256u * 1024);
  EXPECT_EQ(budget.source, "MHETA_MEMORY_BYTES");
}

TEST(MemoryBudget, MalformedEnvironmentBudgetIsAnError) {
  for (const char* bad : {"lots", "0", "1.5G"}) {
    ScopedEnv env("MHETA_MEMORY_BYTES", bad);
    EXPECT_THROW(memory_budget(1), std::runtime_error) << bad;
  }
}

TEST(MemoryBudget, WithoutEnvironmentTheNodeMemoryIsSharedAmongItsRanks) {
  ScopedEnv env("MHETA_MEMORY_BYTES", nullptr);
  const MemoryBudget one = memory_budget(1);
  const MemoryBudget four = memory_budget(4);
  EXPECT_GT(one.bytes, 0u);
  EXPECT_NE(one.source, "MHETA_MEMORY_BYTES");
  // Free memory moves between the two readings; a quarter give or take 10%.
  EXPECT_NEAR(static_cast<double>(four.bytes), static_cast<double>(one.bytes) / 4,
              0.1 * static_cast<double>(one.bytes));
}

TEST(MemoryBudget, ForceOutOfCoreOnlyForOne) {
  {
    ScopedEnv env("MHETA_FORCE_OOC", "1");
    EXPECT_TRUE(force_out_of_core_from_environment());
  }
  {
    ScopedEnv env("MHETA_FORCE_OOC", "0");
    EXPECT_FALSE(force_out_of_core_from_environment());
  }
  ScopedEnv env("MHETA_FORCE_OOC", nullptr);
  EXPECT_FALSE(force_out_of_core_from_environment());
}

}  // namespace
}  // namespace mheta::io
