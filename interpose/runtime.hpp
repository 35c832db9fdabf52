#pragma once
// The interposer's runtime for this process: a small core (the phase of
// capture, the captured timeline, the requests and files it follows, the
// compute between calls) and the services the settings switch on
// (service.hpp, services.cpp), which the core calls at fixed points.
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "interpose/call.hpp"
#include "interpose/captured_windows.hpp"
#include "interpose/file_variables.hpp"
#include "interpose/message_channels.hpp"
#include "interpose/phase.hpp"
#include "interpose/request_table.hpp"
#include "interpose/service.hpp"
#include "interpose/settings.hpp"
#include "interpose/tag_steps.hpp"
#include "interpose/varying_values.hpp"
#include "interpose/timeline.hpp"
#include "interpose/virtual_clock.hpp"
#include "model/profile.hpp"

namespace mheta::interpose {

class Runtime {
 public:
  static Runtime& get();

  // MPI_Init(_thread) has returned.
  void start(int thread_level);
  // MPI_Finalize is about to be called (or the program exits without it,
  // every rank alike: lifecycle.cpp).
  void finish();
  // Whether start() followed this process (not one MPI_Comm_spawn started),
  // and whether finish() has run.
  bool watching() const { return watching_; }
  bool finished() const { return finished_; }

  // Around every handled call: `enter` ends the compute section before the
  // call `fn` (Fn::count_: a program mark), the services may stretch it, and
  // records it; `leave` notes the end of the call.
  double enter(Fn fn = Fn::count_);
  void leave();
  // The compute since the last `leave`, as `enter` would record it (without
  // stretching it).
  double compute_since_leave();
  // When the last intercepted call returned.
  double last_exit() const { return last_exit_; }
  // When the call in progress (or the last one) entered, after its compute.
  double last_entry() const { return last_entry_; }

  // Requests, files, the call sequence and collectives matter: a capture is
  // to come, or a service needs them (the ranks' agreement on an iteration).
  bool following() const { return following_; }
  bool capturing() const { return phase_ == Phase::capturing; }
  Phase phase() const { return phase_; }
  const Settings& settings() const { return settings_; }
  int world_rank() const { return rank_; }
  int world_size() const { return size_; }
  int thread_level() const { return thread_level_; }
  // With MPI_THREAD_MULTIPLE, notes a call by a thread other than the one
  // that called MPI_Init; whether any was made.
  void note_calling_thread() {
    if (std::this_thread::get_id() != init_thread_) other_threads_called_.store(true, std::memory_order_relaxed);
  }
  bool other_threads_called() const { return other_threads_called_.load(std::memory_order_relaxed); }
  // Whether the calling thread is the one that started MPI.
  bool on_init_thread() const { return std::this_thread::get_id() == init_thread_; }
  // A private duplicate of MPI_COMM_WORLD for the interposer's own
  // collectives (MPI_COMM_NULL when capture is off).
  MPI_Comm private_comm() const { return comm_; }
  // Compute is measured in the thread's CPU time (emulation), not wall time.
  bool measures_cpu() const { return measures_cpu_; }
  // Each compute section's preemptions are counted too (ComputeSection).
  bool measures_preemptions() const { return measures_preemptions_; }
  // The slower disk's factor on MPI-IO transfers (1: none).
  double file_io_factor() const { return file_io_factor_; }
  // The factor compute is multiplied by (1: none).
  double compute_factor() const { return compute_factor_; }
  // The virtual clock service, or one that is off (every call a no-op)
  // when the run keeps the wall clock.
  VirtualClockService& clock() { return *clock_; }

  // Recording (call only while capturing, with mutex() held).
  Timeline& timeline() { return timeline_; }
  std::mutex& mutex() { return mutex_; }
  RequestTable& requests() { return requests_; }
  // The messages of each channel so far (counted while calls are followed,
  // mutex() held): where a captured period begins in each.
  ChannelCounter& channels() { return channels_; }
  FileVariables& files() { return files_; }
  // What detection sees of each call's tag (mutex() held).
  TagSteps& tag_steps() { return tag_steps_; }
  // Which calls' sizes and file offsets vary, for detection (mutex() held).
  VaryingValues& varying_values() { return varying_values_; }
  // The windows whose transfers and fences are recorded (mutex() held).
  CapturedWindows& windows() { return windows_; }
  // Split collective MPI-IO begun and not yet ended, by file (MPI allows
  // one at a time on a file).
  std::unordered_map<MPI_File, PendingRequest>& split_file_io() { return split_file_io_; }

  // The capture's boundaries, decided by the capture service; each tells
  // the services (mutex() held).
  void capture_near();
  void begin_capture();
  void end_capture(bool collective_point);
  // An automatic capture took a whole period, ending with `compute_s`
  // before the call it ends at: it is kept for the profile, and the core
  // waits again (a loop that takes more time may replace it); the services
  // hear of its end as of any, at no point every rank reaches. Another
  // period of the loop kept before (`again`) joins the last `periods` - 1
  // kept: the profile then holds their median (Timeline::median_of).
  void keep_capture(double compute_s, bool again, std::size_t periods);
  // Nothing more is to be captured (automatic detection concluded); a kept
  // capture stays.
  void stop_capturing();
  // Drops the capture going on (its loop broke off before a whole period).
  void drop_capture();
  // Drops the capture going on and any kept (the program marks its
  // iterations after all).
  void restart_waiting();
  // Iterations ended so far, as the capture knows them (the profile's count
  // until MPI_Finalize counts the run's).
  void note_iteration_ended() { ++iterations_; }
  std::int64_t iterations() const { return iterations_; }
  // Whether a whole iteration was captured; the captured iteration and the
  // variables as it left them (written in it or not).
  bool captured() const { return captured_; }
  const Timeline& captured_timeline() const { return captured_timeline_; }
  std::vector<VariableSeen> captured_variables() const;
  // How sure an automatic capture is (set by the capture service before the
  // profile is written; absent in other modes).
  void set_capture_confidence(const model::CaptureConfidence& c) { confidence_ = c; }
  const std::optional<model::CaptureConfidence>& capture_confidence() const { return confidence_; }
  // Automatic detection's times, seconds in the clock loops are timed with
  // (< 0: not measured): the captured loop's, from its first call to its
  // last; on a rank that found no loop, its compute between calls after its
  // first call.
  struct LoopTimes {
    double loop_s = -1;
    double compute_without_loop_s = -1;
  };
  void set_loop_times(const LoopTimes& t) { loop_times_ = t; }
  const LoopTimes& loop_times() const { return loop_times_; }

  // After a service's state changed: whether the wrappers are engaged and
  // calls followed.
  void refresh();

  // Services' hooks, called by the category handlers (handlers.hpp) and the
  // entry points (lifecycle.cpp).
  std::optional<int> run_blocking(const BlockingCall& call);
  void before_passive_target_sync(MPI_Win win, int rank, bool every_rank);
  void after_call(Fn fn, const CallInfo& call, int rc);
  void message(const MessageEvent& event);
  void collective(const CollectiveEvent& event);
  void file_io(const FileIoEvent& event);
  void call_seen(const CallSeen& event);
  double time_file_io(double io_s, double wall_s, DiskOp op, std::int64_t bytes);
  // A non-blocking MPI-IO request issued at wall time `issued_at` on the
  // emulated cluster's disk, if a service emulates one.
  std::optional<DiskTurn> disk_request(DiskOp op, std::int64_t bytes, double issued_at);
  double wtime(double seconds);
  void program_mark();
  void pcontrol(int level);

 private:
  void keep_timeline(double compute_s, bool again = false, std::size_t periods = 1);
  // Preemptions of this thread since it last left a call (-1: unknown).
  static long preemptions_since_leave();

  std::mutex mutex_;
  Settings settings_;
  std::vector<std::unique_ptr<Service>> services_;
  Phase phase_ = Phase::done;
  bool following_ = false;
  bool measures_cpu_ = false;
  bool measures_preemptions_ = false;
  double file_io_factor_ = 1;
  double compute_factor_ = 1;
  VirtualClockService* clock_ = nullptr;
  int rank_ = 0;
  int size_ = 1;
  int thread_level_ = MPI_THREAD_SINGLE;
  bool watching_ = false;
  std::thread::id init_thread_;
  std::atomic<bool> other_threads_called_{false};
  bool finished_ = false;
  MPI_Comm comm_ = MPI_COMM_NULL;
  double last_exit_ = 0;
  double last_entry_ = 0;
  Timeline timeline_;
  RequestTable requests_;
  ChannelCounter channels_;
  FileVariables files_;
  TagSteps tag_steps_;
  VaryingValues varying_values_;
  CapturedWindows windows_;
  std::unordered_map<MPI_File, PendingRequest> split_file_io_;
  std::int64_t iterations_ = 0;
  bool captured_ = false;
  Timeline captured_timeline_;
  std::vector<Timeline> captured_periods_;  // of one loop, captured_timeline_ their median
  std::vector<VariableSeen> captured_variables_;  // as they were when the captured iteration was kept
  std::optional<model::CaptureConfidence> confidence_;
  LoopTimes loop_times_;
};

// A call of the program that is no compute of it: a sleep or a yield
// (sleep_calls.cpp), most often between the tests of a polling loop. The
// processor time the thread spends inside it (on a virtual machine, ~20 us
// for every nanosleep, whatever its length) is left out of the compute
// section it falls in, as the time inside MPI calls is: counted, it made
// every poll of a sleeping wait cost that much emulated compute, times the
// rank's CPU factor (docs/emulation.md, "Sleeps and yields").
class NotCompute {
 public:
  NotCompute();
  ~NotCompute();
  NotCompute(const NotCompute&) = delete;
  NotCompute& operator=(const NotCompute&) = delete;

 private:
  double cpu_at_start_ = -1;  // < 0: this thread's compute is not measured
};

}  // namespace mheta::interpose
