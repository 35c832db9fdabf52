#include "io/icla_array.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <numeric>
#include <thread>
#include <vector>

#include "io/io_counters.hpp"
#include "io/sweep_plan.hpp"
#include "tests/io/mpi_file_recorder.hpp"
#include "tests/io/test_dir.hpp"

namespace mheta::io {
namespace {

using testing::fresh_test_dir;
using testing::recorder;

// 100 rows of 10 doubles (80 bytes), row i holding i*10 .. i*10+9.
LocalArray numbered_array(const std::filesystem::path& dir, std::int64_t rows = 100, std::int64_t width = 10) {
  const model::GenBlock dist{{rows}};
  LocalArray array = LocalArray::create(dir, {"x", ElementType::f64, width}, dist, 0);
  std::vector<double> values(static_cast<std::size_t>(rows * width));
  std::iota(values.begin(), values.end(), 0.0);
  array.write_rows(0, rows, values.data());
  return array;
}

SweepSettings settings(std::uint64_t budget, bool prefetch, bool force = false) {
  return {budget, "test", force, prefetch};
}

// Sums every element of one sweep and checks each row holds its numbers.
double sweep_sum(IclaArray& array) {
  double sum = 0;
  for (std::int64_t k = 0; k < array.chunk_count(); ++k) {
    const RowRange range = array.chunk(k);
    const auto values = rows_as<double>(array.acquire(k));
    EXPECT_EQ(values.size(), static_cast<std::size_t>(range.count * 10));
    EXPECT_EQ(values.front(), static_cast<double>(range.first * 10));
    sum += std::accumulate(values.begin(), values.end(), 0.0);
    array.release(k, false);
  }
  return sum;
}

TEST(SweepPlan, SizesWithTheSharedPolicyHalvedWhenPrefetching) {
  const auto dir = fresh_test_dir();
  LocalArray x = numbered_array(dir);
  const LocalArray* arrays[] = {&x};
  // 100 rows x 80 bytes = 8000 bytes.
  EXPECT_TRUE(plan_sweep(arrays, settings(8000, false))[0].in_core);
  const auto out = plan_sweep(arrays, settings(7999, false))[0];
  EXPECT_FALSE(out.in_core);
  EXPECT_EQ(out.icla_rows, 99);
  EXPECT_EQ(out.chunks, 2);
  const auto prefetching = plan_sweep(arrays, settings(1600, true))[0];
  EXPECT_EQ(prefetching.icla_rows, 10);
  EXPECT_EQ(prefetching.chunks, 10);
  const auto forced = plan_sweep(arrays, settings(1 << 20, false, true))[0];
  EXPECT_FALSE(forced.in_core);
  EXPECT_EQ(forced.chunks, 1);
}

TEST(IclaArray, OutOfCoreSweepReadsEveryChunkOnceEachTime) {
  const auto dir = fresh_test_dir();
  LocalArray x = numbered_array(dir);
  const LocalArray* arrays[] = {&x};
  IclaArray array(x, plan_sweep(arrays, settings(16 * 80, false))[0], false);
  ASSERT_EQ(array.chunk_count(), 7);  // N_L = ceil(100 / 16)
  EXPECT_EQ(array.chunk(6).first, 96);
  EXPECT_EQ(array.chunk(6).count, 4);
  for (int sweep = 0; sweep < 2; ++sweep) {
    const IoCounters before = io_counters();
    EXPECT_EQ(sweep_sum(array), 999.0 * 1000 / 2);
    const IoCounters done = io_counters() - before;
    EXPECT_EQ(done.reads, 7);
    EXPECT_EQ(done.read_bytes, 100 * 80);
    EXPECT_EQ(done.writes, 0);
  }
}

TEST(IclaArray, InCoreArrayIsReadOnceAndKept) {
  const auto dir = fresh_test_dir();
  LocalArray x = numbered_array(dir);
  const LocalArray* arrays[] = {&x};
  IclaArray array(x, plan_sweep(arrays, settings(1 << 20, false))[0], false);
  ASSERT_EQ(array.chunk_count(), 1);
  const IoCounters before = io_counters();
  sweep_sum(array);
  sweep_sum(array);
  EXPECT_EQ((io_counters() - before).reads, 1);
}

TEST(IclaArray, PrefetchedSweepReadsTheSameRowsAheadOfUse) {
  const auto dir = fresh_test_dir();
  LocalArray x = numbered_array(dir);
  const LocalArray* arrays[] = {&x};
  IclaArray array(x, plan_sweep(arrays, settings(2 * 16 * 80, true))[0], true);
  ASSERT_EQ(array.chunk_count(), 7);
  recorder().clear();
  EXPECT_EQ(sweep_sum(array), 999.0 * 1000 / 2);
  // The first chunk is read synchronously, the others ahead with iread.
  ASSERT_EQ(recorder().accesses.size(), 7u);
  EXPECT_EQ(recorder().accesses[0].call, "read_at");
  for (std::size_t k = 1; k < 7; ++k) EXPECT_EQ(recorder().accesses[k].call, "iread_at") << k;
  EXPECT_EQ(recorder().accesses[6].bytes, 4 * 80);
}

TEST(IclaArray, ChangedChunksAreWrittenBackInAndOutOfCore) {
  for (const std::uint64_t budget : {std::uint64_t{1} << 20, std::uint64_t{16 * 80}}) {
    const auto dir = fresh_test_dir();
    LocalArray x = numbered_array(dir);
    const LocalArray* arrays[] = {&x};
    {
      IclaArray array(x, plan_sweep(arrays, settings(budget, true))[0], true);
      for (std::int64_t k = 0; k < array.chunk_count(); ++k) {
        for (double& v : rows_as<double>(array.acquire(k))) v = -v;
        array.release(k, true);
      }
      array.flush();
    }
    std::vector<double> back(1000);
    x.read_rows(0, 100, back.data());
    EXPECT_EQ(back[0], 0.0);
    EXPECT_EQ(back[999], -999.0) << "budget " << budget;
    EXPECT_EQ(back[512], -512.0) << "budget " << budget;
  }
}

TEST(IclaArray, ZeroRowBlockHasNoChunks) {
  const auto dir = fresh_test_dir();
  LocalArray x = LocalArray::create(dir, {"x", ElementType::f64, 10}, model::GenBlock{{5, 0}}, 1);
  const LocalArray* arrays[] = {&x};
  IclaArray array(x, plan_sweep(arrays, settings(100, true))[0], true);
  EXPECT_EQ(array.chunk_count(), 0);
}

// Eq 2: with enough compute on each ICLA the prefetched reads are hidden:
// MPI_Wait finds them done. Without compute the same waits carry the whole
// read, which shows the read really runs in the background (were
// MPI_File_iread_at blocking, both waits would be zero and this would fail).
TEST(IclaArray, PrefetchOverlapsComputeHeavyChunks) {
  const auto dir = fresh_test_dir();
  const std::int64_t rows = 64;
  const std::int64_t width = 64 * 1024;  // 512 KiB rows, 4 MiB ICLAs
  LocalArray x = numbered_array(dir, rows, width);
  const LocalArray* arrays[] = {&x};
  // The compute sleeps rather than spins: on a loaded machine a spinning
  // caller can hold the core the background read needs, and what is checked
  // is that the read runs while the caller does something else.
  auto busy = [](std::chrono::microseconds duration) { std::this_thread::sleep_for(duration); };
  auto prefetched_sweeps = [&](std::chrono::microseconds compute) {
    IclaArray array(x, plan_sweep(arrays, settings(2 * 8 * width * 8, true))[0], true);
    EXPECT_EQ(array.plan().icla_rows, 8);
    const IoCounters before = io_counters();
    for (int repeat = 0; repeat < 3; ++repeat) {
      for (std::int64_t k = 0; k < array.chunk_count(); ++k) {
        array.acquire(k);
        busy(compute);
        array.release(k, false);
      }
    }
    return io_counters() - before;
  };
  const IoCounters idle = prefetched_sweeps(std::chrono::microseconds(0));
  const IoCounters heavy = prefetched_sweeps(std::chrono::milliseconds(20));  // far longer than a 4 MiB read
  EXPECT_EQ(idle.read_bytes, heavy.read_bytes);
  EXPECT_LT(heavy.wait_seconds, 0.25 * idle.wait_seconds)
      << "waits without compute " << idle.wait_seconds << " s, with 20 ms per ICLA " << heavy.wait_seconds << " s";
}

}  // namespace
}  // namespace mheta::io
