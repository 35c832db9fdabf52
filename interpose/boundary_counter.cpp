#include "interpose/boundary_counter.hpp"

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
}  // namespace

void count_boundaries(Fn fn, std::int64_t every, std::int64_t seen_before) {
  every = every > 0 ? every : 1;
  if (static_cast<int>(fn) != g_boundary_fn.load(std::memory_order_relaxed) || every != g_every) ++g_generation;
  g_every = every;
  g_seen_before = seen_before;
  g_boundary_calls.store(0, std::memory_order_relaxed);
  g_wake_at_calls.store(-1, std::memory_order_relaxed);
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
  g_wake_at_calls.store(iteration < 0 ? -1 : iteration * g_every - g_seen_before, std::memory_order_relaxed);
}

std::int64_t boundaries_counted() {
  if (g_boundary_fn.load(std::memory_order_relaxed) < 0) return 0;
  return (g_seen_before + g_boundary_calls.load(std::memory_order_relaxed)) / g_every;
}

}  // namespace mheta::interpose
