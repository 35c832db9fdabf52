#include "io/icla_group.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <numeric>
#include <vector>

#include "io/io_counters.hpp"
#include "tests/io/test_dir.hpp"

namespace mheta::io {
namespace {

using testing::fresh_test_dir;

// The interposer forces out of core for the captured iteration only; an
// in-core group follows it there and back without losing a changed block.
TEST(IclaGroup, FollowsForcedOutOfCoreForOneIterationAndBack) {
  const auto dir = fresh_test_dir();
  const model::GenBlock dist{{100}};
  LocalArray x = LocalArray::create(dir, {"x", ElementType::f64, 10}, dist, 0);
  unsetenv("MHETA_FORCE_OOC");
  IclaGroup group({&x}, SweepSettings{1 << 20, "test", false, false});
  IclaArray& array = group[0];
  ASSERT_TRUE(array.in_core());
  // Iteration 1, in core: fill the block in memory only.
  group.follow_environment();
  for (double& v : rows_as<double>(array.acquire_for_write(0))) v = 7.0;
  array.release(0, true);

  // Iteration 2, captured: every variable out of core, in budget-sized ICLAs.
  setenv("MHETA_FORCE_OOC", "1", 1);
  group.follow_environment();
  unsetenv("MHETA_FORCE_OOC");
  EXPECT_TRUE(group.forced());
  EXPECT_FALSE(array.in_core());
  EXPECT_EQ(array.chunk_count(), 1);  // the roomy budget holds the whole block in one ICLA
  IoCounters before = io_counters();
  double sum = 0;
  for (std::int64_t k = 0; k < array.chunk_count(); ++k) {
    for (double v : rows_as<double>(array.acquire(k))) sum += v;
    array.release(k, false);
  }
  EXPECT_EQ(sum, 7.0 * 1000);  // the in-memory values reached the file before the switch
  EXPECT_EQ((io_counters() - before).reads, array.chunk_count());

  // Iteration 3: back in core, read once.
  group.follow_environment();
  EXPECT_TRUE(array.in_core());
  before = io_counters();
  for (int sweep = 0; sweep < 2; ++sweep) {
    EXPECT_EQ(rows_as<double>(array.acquire(0))[999], 7.0);
    array.release(0, false);
  }
  EXPECT_EQ((io_counters() - before).reads, 1);
}

TEST(IclaGroup, ForcedPlanUsesTheSharedPolicy) {
  const auto dir = fresh_test_dir();
  const model::GenBlock dist{{100}};
  LocalArray x = LocalArray::create(dir, {"x", ElementType::f64, 10}, dist, 0);
  LocalArray y = LocalArray::create(dir, {"y", ElementType::f64, 30}, dist, 0);
  // Together 320 bytes a row; a budget of 4000 bytes fits 12 rows of both.
  IclaGroup group({&x, &y}, SweepSettings{4000, "test", true, false});
  EXPECT_TRUE(group.forced());
  EXPECT_EQ(group[0].plan().icla_rows, 12);
  EXPECT_EQ(group[1].plan().icla_rows, 12);
  EXPECT_EQ(group[1].chunk_count(), 9);
}

}  // namespace
}  // namespace mheta::io
