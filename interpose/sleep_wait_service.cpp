#include "interpose/sleep_wait_service.hpp"

#include "interpose/sleep_wait.hpp"

namespace mheta::interpose {

std::optional<int> SleepWaitService::run_blocking(Runtime&, const BlockingCall& call) {
  if (call.nonblocking) return sleep_wait(call.nonblocking, call.info.status);
  if (call.test) return poll_with_sleeps(call.test);
  return std::nullopt;
}

}  // namespace mheta::interpose
