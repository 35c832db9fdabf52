#include "interpose/boundary_counter.hpp"

#include <algorithm>

namespace mheta::interpose {

std::atomic<int> g_boundary_fn{-1};
std::atomic<std::int64_t> g_boundary_calls{0};
std::atomic<std::int64_t> g_wake_at_calls{-1};
std::atomic<std::int64_t> g_marks{0};
std::atomic<std::int64_t> g_wake_at_marks{-1};

namespace {
std::int64_t g_every = 1;
std::int64_t g_seen_before = 0;
std::int64_t g_generation = 0;
std::int64_t g_renumbered = 0;
std::int64_t g_wake_iteration = -1;  // wake_at_iteration's, -1: none

// The call of the count that ends `iteration`, for g_wake_at_calls: at
// least the next one (an iteration the count has passed already wakes
// there).
std::int64_t wake_call(std::int64_t iteration) {
  if (iteration < 0) return -1;
  return std::max<std::int64_t>(iteration * g_every - g_seen_before, g_boundary_calls.load(std::memory_order_relaxed) + 1);
}
}  // namespace

// A wake asked for stays: the accounting service sampling the run lets the
// wrappers idle until it, and automatic capture counts the loop again when
// detection concludes (the same function, from the detector's count) or
// when another loop wins. Reset, the sample never woke and the records
// stopped where detection concluded (a run's last 100-150 of 802). Counted
// by another function, the next call wakes the service, which then starts
// its records afresh.
void count_boundaries(Fn fn, std::int64_t every, std::int64_t seen_before) {
  every = every > 0 ? every : 1;
  const bool another = static_cast<int>(fn) != g_boundary_fn.load(std::memory_order_relaxed) || every != g_every;
  if (another) ++g_generation;
  g_every = every;
  g_seen_before = seen_before;
  g_boundary_calls.store(0, std::memory_order_relaxed);
  const std::int64_t wake = g_wake_iteration < 0 ? -1 : another ? 1 : wake_call(g_wake_iteration);
  g_wake_at_calls.store(wake, std::memory_order_relaxed);
  g_boundary_fn.store(static_cast<int>(fn), std::memory_order_relaxed);
}

void settle_boundaries(Fn fn, std::int64_t every, std::int64_t seen_before) {
  const std::int64_t before = boundaries_counted();
  const std::int64_t generation = g_generation;
  count_boundaries(fn, every, seen_before);
  g_renumbered = g_generation == generation ? boundaries_counted() - before : 0;
}

std::int64_t boundaries_renumbered() { return g_renumbered; }

std::int64_t boundary_every() { return g_every; }

std::int64_t boundary_generation() { return g_generation; }

void wake_at_mark(std::int64_t marks) { g_wake_at_marks.store(marks < 0 ? -1 : marks, std::memory_order_relaxed); }

void wake_at_iteration(std::int64_t iteration) {
  g_wake_iteration = iteration < 0 ? -1 : iteration;
  g_wake_at_calls.store(iteration < 0 ? -1 : iteration * g_every - g_seen_before, std::memory_order_relaxed);
}

std::int64_t boundaries_counted() {
  if (g_boundary_fn.load(std::memory_order_relaxed) < 0) return 0;
  return (g_seen_before + g_boundary_calls.load(std::memory_order_relaxed)) / g_every;
}

}  // namespace mheta::interpose
