#pragma once
// Waiting without spinning (MHETA_WAIT=sleep) as a service: a blocking call
// runs as its non-blocking form, a wait as its test, polled with short
// sleeps (sleep_wait.hpp); a rank asleep in a wait is woken by another of
// its node before a lock, flush or unlock that waits for it as a passive
// target (wake_board.hpp).
#include "interpose/service.hpp"

namespace mheta::interpose {

class SleepWaitService final : public Service {
 public:
  const char* name() const override { return "sleep-wait"; }
  bool keeps_engaged(const Runtime&) const override { return true; }
  void on_start(Runtime&) override;
  void on_finish(Runtime&) override;
  std::optional<int> run_blocking(Runtime&, const BlockingCall& call) override;
  void before_passive_target_sync(Runtime&, MPI_Win win, int rank, bool every_rank) override;
};

}  // namespace mheta::interpose
