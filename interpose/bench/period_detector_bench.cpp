// CPU time of automatic detection's own work per intercepted call
// (PeriodDetector::observe, and VaryingValues::varies for its size), the part of the default mode's cost per call
// that grows with what the detector follows; the whole cost per call,
// wrapper and bookkeeping included, is interpose/bench/default_mode_cost.py's
// (target <= 100 ns while detecting). CPU time: the machine is shared.
#include <benchmark/benchmark.h>

#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "interpose/period_detector.hpp"
#include "interpose/varying_values.hpp"

namespace {

using mheta::interpose::PeriodDetector;

// A loop of `period` calls (a halo exchange, a reduction), repeated.
void BM_ObserveLoop(benchmark::State& state) {
  const auto period = static_cast<std::uint64_t>(state.range(0));
  PeriodDetector detector;
  std::uint64_t call = 0;
  double time = 0;
  for (auto _ : state) {
    detector.observe({.exact = 0x9E3779B97F4A7C15ULL * (call % period + 1)}, static_cast<int>(call % 3), time);
    ++call;
    time += 1e-6;
  }
  benchmark::DoNotOptimize(detector.best().id);
}
BENCHMARK(BM_ObserveLoop)->Arg(4)->Arg(64)->Arg(1024);

// Calls that never repeat in order: candidates proposed and dropped all the time.
void BM_ObserveNoLoop(benchmark::State& state) {
  std::mt19937_64 random(17);
  std::vector<std::uint64_t> signatures(1 << 16);
  for (std::uint64_t& s : signatures) s = random() % 64;
  PeriodDetector detector;
  std::size_t call = 0;
  double time = 0;
  for (auto _ : state) {
    detector.observe({.exact = signatures[call++ & (signatures.size() - 1)]}, 0, time);
    time += 1e-6;
  }
  benchmark::DoNotOptimize(detector.best().id);
}
BENCHMARK(BM_ObserveNoLoop);

// What detection asks of every call's size (VaryingValues::varies): a halo
// exchange's fixed sizes (0), or a count then particles whose number
// changes every step (1), over a few peers.
void BM_VaryingValues(benchmark::State& state) {
  const bool particles = state.range(0) != 0;
  mheta::interpose::VaryingValues values;
  std::uint64_t call = 0;
  for (auto _ : state) {
    const std::uint64_t peer = call % 4;
    const std::int64_t bytes =
        particles && call % 8 >= 4 ? 8 * (1000 + static_cast<std::int64_t>((call * 2654435761U) % 2000U)) : 4096;
    benchmark::DoNotOptimize(
        values.varies(0x1234 + (peer << 20), bytes, std::bit_width(static_cast<std::uint64_t>(bytes))));
    ++call;
  }
}
BENCHMARK(BM_VaryingValues)->Arg(0)->Arg(1);

}  // namespace

BENCHMARK_MAIN();
