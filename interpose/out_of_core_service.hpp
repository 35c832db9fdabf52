#pragma once
// Out-of-core forcing around the captured iteration, as a service. From the
// iteration before the captured one to the end of it, io/ sizes its ICLAs
// out of core on every rank (it asks mheta_out_of_core_forced() of
// <mheta/interposer.h> at the start of each iteration): a rank that would be
// in core writes its arrays out (and allocates its buffers) in the
// iteration before, so the captured one is a steady out-of-core iteration
// and holds none of that one-off cost (it once gave in-core ranks of jacobi
// --prefetch 20 ms of extra CPU). io/ still plans the run as usual
// (io/memory_budget.hpp); a user's MHETA_FORCE_OOC=1 (the whole run) is
// io/'s own and unaffected.
#include <atomic>

#include "interpose/service.hpp"

namespace mheta::interpose {

class OutOfCoreService final : public Service {
 public:
  const char* name() const override { return "out-of-core"; }
  void on_capture_near(Runtime&) override { force(true); }
  void on_capture_begin(Runtime&) override { force(true); }  // already, in most modes
  void on_capture_end(Runtime&, bool) override { force(false); }

  // What mheta_out_of_core_forced() answers.
  static bool forced() { return forced_.load(std::memory_order_relaxed); }

 private:
  static void force(bool on) { forced_.store(on, std::memory_order_relaxed); }
  static std::atomic<bool> forced_;
};

}  // namespace mheta::interpose
