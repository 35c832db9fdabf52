#include "interpose/sleep_wait_service.hpp"

#include "interpose/sleep_wait.hpp"
#include "interpose/wake_board.hpp"

namespace mheta::interpose {

void SleepWaitService::on_start(Runtime&) { wake_board().open(); }

// Collective: every rank is at MPI_Finalize, none waits any more.
void SleepWaitService::on_finish(Runtime&) { wake_board().close(); }

void SleepWaitService::before_passive_target_sync(Runtime&, MPI_Win win, int rank, bool every_rank) {
  wake_board().wake_target(win, rank, every_rank);
}

std::optional<int> SleepWaitService::run_blocking(Runtime&, const BlockingCall& call) {
  if (call.nonblocking) return sleep_wait(call.nonblocking, call.info.status);
  if (call.test) return poll_with_sleeps(call.test);
  return std::nullopt;
}

}  // namespace mheta::interpose
