#pragma once
// The one flag every generated wrapper reads. False: the wrapper calls
// PMPI_ and returns (the library is loaded but has nothing to do: no capture
// pending, no emulation, no sleep-waiting).
#include <atomic>

namespace mheta::interpose {

extern std::atomic<bool> g_engaged;

inline bool engaged() { return g_engaged.load(std::memory_order_relaxed); }

// MPI calls made from inside an intercepted call (ROMIO and HDF5 call MPI
// from MPI-IO) belong to the outer call: only the outermost is handled.
class ReentryGuard {
 public:
  ReentryGuard() : nested_(depth_++ > 0) {}
  ~ReentryGuard() { --depth_; }
  ReentryGuard(const ReentryGuard&) = delete;
  ReentryGuard& operator=(const ReentryGuard&) = delete;
  bool nested() const { return nested_; }
  // Whether this thread is inside an intercepted call.
  static bool inside() { return depth_ > 0; }

 private:
  static thread_local int depth_;
  bool nested_;
};

}  // namespace mheta::interpose
