#include "interpose/profile_service.hpp"

#include "interpose/export.hpp"
#include "interpose/profile_output.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose {

namespace {
std::atomic<const char*> g_written_path{nullptr};
}  // namespace

const char* ProfileService::written_path() { return g_written_path.load(std::memory_order_acquire); }

void ProfileService::on_capture_end(Runtime& rt, bool collective_point) {
  if (collective_point) write_collectively(rt);
}

void ProfileService::on_finish(Runtime& rt) {
  if (!tried_) write_collectively(rt);
}

void ProfileService::write_collectively(Runtime& rt) {
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
  }
  record.loop_s = rt.loop_times().loop_s;
  record.compute_without_loop_s = rt.loop_times().compute_without_loop_s;
  record.virtual_clock = rt.clock().timed_capture();
  record.slowdown = {rt.compute_factor(), rt.file_io_factor()};
  if (gather_and_write_profile(rt.private_comm(), record, rt.settings())) {
    g_written_path.store(rt.settings().profile_path.c_str(), std::memory_order_release);
  }
  rt.leave();  // waiting for the other ranks and writing is no compute of the program
}

}  // namespace mheta::interpose

// <mheta/interposer.h>
extern "C" MHETA_EXPORT const char* mheta_profile_written(void) {
  return mheta::interpose::ProfileService::written_path();
}
