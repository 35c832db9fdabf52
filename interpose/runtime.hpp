#pragma once
// The interposer's state for this process: settings, the phase of capture,
// the captured timeline, the requests and files it follows, and the
// services configuration switches on (emulation, sleep-waiting).
#include <mpi.h>

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "interpose/call.hpp"
#include "interpose/emulator.hpp"
#include "interpose/period_detector.hpp"
#include "interpose/request_table.hpp"
#include "interpose/settings.hpp"
#include "interpose/timeline.hpp"
#include "interpose/variable_name.hpp"
#include "interpose/virtual_clock.hpp"

namespace mheta::interpose {

enum class Phase {
  waiting,    // before the captured iteration: following files, requests, the call sequence
  capturing,  // inside it
  done,       // after it (or never): the wrappers only emulate, if anything
};

// A distributed variable as this rank saw it (from MPI_File_open).
struct VariableSeen {
  std::string name;
  std::int64_t bytes_per_row = 0;  // 0: unknown (no hint)
  std::int64_t global_rows = 0;
  std::int64_t local_rows = -1;
  std::int64_t file_bytes = 0;
  bool hinted = false;   // named by the mheta_variable hint
  bool written = false;  // written in the captured iteration (setup writes do not count)
};

class Runtime {
 public:
  static Runtime& get();

  // MPI_Init(_thread) has returned.
  void start(int thread_level);
  // MPI_Finalize is about to be called.
  void finish();

  // Around every handled call: `enter` stretches the compute before it
  // (emulation) and records it; `leave` notes the end of the call.
  double enter();
  void leave();
  // The compute since the last `leave`, as `enter` would record it (without
  // stretching it).
  double compute_since_leave() const;

  // Requests, files, the call sequence and collectives matter: a capture is
  // to come, or the ranks have not yet agreed on one (automatic detection:
  // every rank must join every agreement until they are done).
  bool following() const { return phase_ != Phase::done || agreement_pending(); }
  bool agreement_pending() const { return settings_.capture == CaptureMode::automatic && !agreement_done_; }
  bool capturing() const { return phase_ == Phase::capturing; }
  const Settings& settings() const { return settings_; }
  Emulator& emulator() { return emulator_; }
  VirtualClockService& clock() { return clock_; }
  int world_rank() const { return rank_; }
  int world_size() const { return size_; }

  // Recording (call only while capturing, with mutex() held).
  Timeline& timeline() { return timeline_; }
  std::mutex& mutex() { return mutex_; }

  // Requests and files (mutex() held).
  RequestTable& requests() { return requests_; }
  int variable_of(MPI_File fh) const;
  void open_file(MPI_File fh, const char* filename, MPI_Info info);
  void close_file(MPI_File fh);
  void note_write(int variable);
  // The captured iteration's last write of each variable, which a sync of
  // its file adds its time to.
  void note_write_record(int variable, Timeline::IoRef ref) { last_write_[variable] = ref; }
  void add_to_last_write(int variable, double seconds);

  // Iteration boundaries.
  void observe(Fn fn, std::uint64_t signature, bool collective_over_all, bool message = false);
  void mark_iteration();
  void pcontrol(int level);

  // What a communicator means for the model: `peer` of `comm` as a rank of
  // MPI_COMM_WORLD, whether messages on it are communication between ranks
  // (more than one rank, not an intercommunicator), and whether a collective
  // on it involves every rank.
  int world_rank_of(MPI_Comm comm, int peer) const;
  bool between_ranks(MPI_Comm comm) const;
  bool over_all_ranks(MPI_Comm comm) const;
  // Whether a collective on `comm` counts for automatic detection: its
  // position among the collectives must be the same on every rank. With
  // MPI_THREAD_MULTIPLE, collectives of different threads on different
  // communicators interleave differently on each rank; only MPI_COMM_WORLD's
  // keep one order.
  bool counts_for_detection(MPI_Comm comm) const {
    return thread_level_ < MPI_THREAD_MULTIPLE || comm == MPI_COMM_WORLD;
  }

 private:
  void force_out_of_core();
  void release_out_of_core();
  void begin_capture();
  void end_capture(bool collective_point);
  void write_profile_collectively();
  void set_engaged();
  void auto_agreement();
  void count_detected_boundaries(int period);

  std::mutex mutex_;
  Settings settings_;
  Emulator emulator_;
  VirtualClockService clock_;
  Phase phase_ = Phase::done;
  int rank_ = 0;
  int size_ = 1;
  int thread_level_ = MPI_THREAD_SINGLE;
  MPI_Comm comm_ = MPI_COMM_NULL;  // private duplicate of MPI_COMM_WORLD for our own collectives
  double last_exit_ = 0;
  Timeline timeline_;
  RequestTable requests_;
  std::unordered_map<MPI_File, int> files_;
  std::vector<VariableSeen> variables_;
  std::unordered_map<int, Timeline::IoRef> last_write_;
  // Iteration detection.
  CaptureMode mode_ = CaptureMode::automatic;
  PeriodDetector detector_;
  std::int64_t collectives_ = 0;
  std::int64_t capture_end_collective_ = -1;
  std::int64_t capture_end_call_ = -1;
  std::int64_t boundaries_ = 0;  // iterations ended (marks, or k-th calls)
  std::int64_t named_calls_ = 0;
  bool end_is_collective_ = false;
  bool agreement_done_ = false;          // the ranks agreed on a capture, or to stop detecting
  std::int64_t last_message_call_ = -1;  // detector_.calls() at the last point-to-point message
  bool captured_ = false;                // a whole iteration is in timeline_
  bool capture_virtual_ = false;         // ... timed by the virtual clock
  bool written_ = false;
};

}  // namespace mheta::interpose
