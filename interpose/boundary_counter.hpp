#pragma once
// The run's iterations in `call:MPI_X[:k]` mode and, once the period is
// found, in automatic mode: an iteration ends at every k-th call of one
// function. Counted in every wrapper, engaged or not (docs/interpose.md,
// "Iterations and row weights"), so the count goes on after the capture,
// when the wrappers do nothing else: one relaxed load and compare per call.
// The program's iteration marks are counted here too.
#include <atomic>
#include <cstdint>

#include "interpose/call.hpp"
#include "interpose/engaged.hpp"

namespace mheta::interpose {

extern std::atomic<int> g_boundary_fn;  // the Fn counted; -1: none
extern std::atomic<std::int64_t> g_boundary_calls;
extern std::atomic<std::int64_t> g_wake_at_calls;  // engage the wrappers at this count; -1: never

extern std::atomic<std::int64_t> g_marks;          // the program's iteration marks so far
extern std::atomic<std::int64_t> g_wake_at_marks;  // engage the wrappers at this mark; -1: never

// One of the program's iteration marks (mheta_iteration), counted whether
// the wrappers are engaged or not.
inline void count_mark() {
  const std::int64_t marks = g_marks.fetch_add(1, std::memory_order_relaxed) + 1;
  if (marks == g_wake_at_marks.load(std::memory_order_relaxed)) g_engaged.store(true, std::memory_order_relaxed);
}

// The marks so far.
inline std::int64_t marks_counted() { return g_marks.load(std::memory_order_relaxed); }

// Engage the wrappers again at the `marks`-th mark (-1: never), as
// wake_at_iteration does for counted calls.
void wake_at_mark(std::int64_t marks);

inline void count_boundary_call(Fn fn) {
  if (__builtin_expect(g_boundary_fn.load(std::memory_order_relaxed) == static_cast<int>(fn), 0)) {
    const std::int64_t calls = g_boundary_calls.fetch_add(1, std::memory_order_relaxed) + 1;
    if (calls == g_wake_at_calls.load(std::memory_order_relaxed)) g_engaged.store(true, std::memory_order_relaxed);
  }
}

// From now on, count the calls of `fn`: an iteration ends at every
// `every`-th, `seen_before` of them were made before.
void count_boundaries(Fn fn, std::int64_t every, std::int64_t seen_before);

// At the run's end, the count settled once more (automatic capture: the
// loop's iterations as the detector saw them, or every call of the run:
// loop_capture.hpp), as count_boundaries does.
void settle_boundaries(Fn fn, std::int64_t every, std::int64_t seen_before);
// By how many iterations settling moved the count while the function and
// its `every` stayed: the iterations cut so far keep their places and are
// renumbered by it (0 when nothing was settled, or the function changed).
std::int64_t boundaries_renumbered();

// The iterations ended so far (0: nothing counted).
std::int64_t boundaries_counted();
// Every how many calls of the counted function an iteration ends.
std::int64_t boundary_every();
// How many times the counted function, or every how many of its calls an
// iteration ends, has changed: automatic capture first counts a loop that
// repeats early (an inner sweep) and then the one the time goes to, and
// iterations counted by the first are not the second's.
std::int64_t boundary_generation();

// Engage the wrappers again at the call that ends iteration `iteration` of
// the count (boundaries_counted() reaching it), from a wrapper that was not
// engaged: the accounting service, sampling the run's iterations, lets the
// wrappers idle between its samples (accounting_service.hpp). -1: never.
void wake_at_iteration(std::int64_t iteration);

}  // namespace mheta::interpose
