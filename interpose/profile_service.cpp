#include "interpose/profile_service.hpp"

#include <cstdio>
#include <limits>

#include "interpose/clock.hpp"
#include "interpose/export.hpp"
#include "interpose/profile_output.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose {

namespace {
std::atomic<const char*> g_written_path{nullptr};

void warn_once(int rank, double seconds) {
  std::fprintf(stderr,
               "mheta interpose: rank %d: the captured iteration ended, and the other ranks have not come to gather "
               "the profile in %.0f s: every rank must mark its iterations (mheta_mark_iteration(), MPI_Pcontrol) "
               "at the same points. Going on; the profile is gathered at MPI_Finalize instead\n",
               rank, seconds);
}
}  // namespace

const char* ProfileService::written_path() { return g_written_path.load(std::memory_order_acquire); }

void ProfileService::on_capture_end(Runtime& rt, bool collective_point) {
  if (collective_point) write_collectively(rt, true);
}

void ProfileService::on_finish(Runtime& rt) {
  if (gather_) {
    finish_gather(rt);
  } else if (!tried_) {
    write_collectively(rt, false);
  }
}

void ProfileService::write_collectively(Runtime& rt, bool bounded) {
  if (tried_ || rt.private_comm() == MPI_COMM_NULL) return;
  tried_ = true;
  RankRecord record;
  record.rank = rt.world_rank();
  record.complete = rt.captured();
  record.sections = rt.captured_timeline().sections();
  record.channel_starts = rt.captured_timeline().channel_starts();
  record.variables = rt.captured_variables();
  record.iterations = rt.iterations();
  if (const auto& confidence = rt.capture_confidence()) {
    record.repetitions = confidence->repetitions;
    record.time_share = confidence->time_share;
    record.pace = confidence->pace.value_or(-1);
  }
  record.loop_s = rt.loop_times().loop_s;
  record.compute_without_loop_s = rt.loop_times().compute_without_loop_s;
  record.virtual_clock = rt.clock().timed_capture();
  record.other_threads = rt.other_threads_called();
  record.slowdown = {rt.compute_factor(), rt.file_io_factor()};
  gather_ = std::make_unique<ProfileGather>();
  start_profile_gather(rt.private_comm(), record, *gather_);
  const double wait = static_cast<double>(rt.settings().gather_wait_s);
  if (bounded && !advance_profile_gather(*gather_, rt.settings(), wait)) {
    warn_once(rt.world_rank(), wait);
    rt.leave();
    return;  // the gather ends at MPI_Finalize
  }
  finish_gather(rt);
}

void ProfileService::finish_gather(Runtime& rt) {
  advance_profile_gather(*gather_, rt.settings(), std::numeric_limits<double>::infinity());
  if (gather_->written != 0) g_written_path.store(rt.settings().profile_path.c_str(), std::memory_order_release);
  gather_.reset();
  rt.leave();  // waiting for the other ranks and writing is no compute of the program
}

}  // namespace mheta::interpose

// <mheta/interposer.h>
extern "C" MHETA_EXPORT const char* mheta_profile_written(void) {
  return mheta::interpose::ProfileService::written_path();
}
