#pragma once
// Waiting without spinning (MHETA_WAIT=sleep) as a service: a blocking call
// runs as its non-blocking form, a wait as its test, polled with short
// sleeps (sleep_wait.hpp).
#include "interpose/service.hpp"

namespace mheta::interpose {

class SleepWaitService final : public Service {
 public:
  const char* name() const override { return "sleep-wait"; }
  bool keeps_engaged(const Runtime&) const override { return true; }
  std::optional<int> run_blocking(Runtime&, const BlockingCall& call) override;
};

}  // namespace mheta::interpose
