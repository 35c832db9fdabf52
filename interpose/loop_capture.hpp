#pragma once
// Automatic capture (MHETA_CAPTURE=auto): every rank on its own, without a
// message to any other (none can ever wait for another), follows the loops
// of its calls (period_detector.hpp) and captures one period of the loop
// that has taken the most time so far; a loop that takes more time later is
// captured again in its place. The loop is captured period after period
// while detection goes on, and the profile holds the median of the last
// few. The ranks' captures meet at MPI_Finalize.
// Any whole period is an iteration: a capture may begin mid-loop, the model
// needs a whole, steady one (docs/interpose.md, "Which iteration").
#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "interpose/boundary_counter.hpp"
#include "interpose/call.hpp"
#include "interpose/call_signature.hpp"
#include "interpose/period_detector.hpp"

namespace mheta::interpose {

class Runtime;

class LoopCapture {
 public:
  // MPI_Init returned: loops are timed from now.
  void start(Runtime& rt);
  // Whether detection goes on (it concludes once the captured loop clearly
  // is the one where the run's time goes).
  bool detecting() const { return detecting_; }
  // The program marks its iterations: detection stops, its capture is dropped.
  void stop() { detecting_ = false; }
  // A call detection sees returned (mutex() held).
  void observe(Runtime& rt, Fn fn, const CallSignature& signature);
  // A call detection sees is about to run, after `compute_s` of compute
  // (mutex() held). A period runs from its first call to the next period's
  // first call: the wait and test calls after its last call (which
  // detection does not see) complete its own requests, so the capture
  // begins and ends here, just before a call detection sees, not after one.
  void before_seen_call(Runtime& rt, double compute_s);
  // Any call is about to run after `seconds` of compute, in the clock
  // loops are timed with (no lock: one add).
  // A rank that never finds a loop tells by it whether it computed through
  // the others' loop or waited it out (profile_assembly.hpp, idle ranks).
  // The compute before its first call is the program's setup (and the
  // services' own start), no loop's.
  void note_compute(double seconds) {
    if (detector_.calls() == 0) return;
    compute_s_.store(compute_s_.load(std::memory_order_relaxed) + seconds, std::memory_order_relaxed);
  }
  // MPI_Finalize, before any service finishes: the run's iterations, as the
  // detector saw the loop or counted over the whole run (the accounting's
  // records are numbered by them).
  void settle_count(Runtime& rt);
  // MPI_Finalize, after settle_count(): how sure the capture is, for the
  // profile.
  void finish(Runtime& rt);

 private:
  void conclude(Runtime& rt);
  double loop_time(Runtime& rt) const;
  // By count_boundaries() of boundary_counter.hpp during the run, by
  // settle_boundaries() at its end.
  using CountBoundaries = void (*)(Fn, std::int64_t every, std::int64_t seen_before);
  void count_boundaries(CountBoundaries count = interpose::count_boundaries) const;
  bool count_whole_run(Runtime& rt) const;
  void keep_period_time(double seconds);
  std::optional<double> pace(double seconds, std::int64_t periods) const;

  PeriodDetector detector_;
  bool detecting_ = true;
  bool virtual_ = false;  // loops are timed with the virtual clock
  double started_at_ = 0;
  double first_call_at_ = -1;  // when the first call detection saw ended
  bool whole_run_ = false;     // settle_count() counted the whole run's calls
  bool captured_ = false;
  std::int64_t capture_loop_ = 0;  // the loop being captured
  std::int64_t capture_end_call_ = -1;
  bool begin_pending_ = false;  // the capture begins before the next call detection sees
  std::int64_t periods_kept_ = 0;  // of the captured loop (the last few's median is the profile's)
  std::int64_t next_capture_at_ = 0;  // the captured loop's repetitions at which it is captured again
  double capture_began_at_ = 0;             // in the clock loops are timed with
  // The kept periods' times, in the clock loops are timed with, oldest first.
  std::vector<double> period_seconds_;
  // Where the loop's mean iteration is measured from: the start of its
  // first kept period, and the run's iterations counted before it.
  struct {
    double time = 0;
    std::int64_t iterations = 0;
  } paced_from_;
  // The loop captured, its statistics kept current while the calls are in it.
  PeriodDetector::Loop captured_loop_;
  // The functions of its captured period and their calls (count_whole_run()).
  std::array<PeriodDetector::KindCalls, PeriodDetector::kPeriodKinds> captured_kinds_{};
  double concluded_at_ = -1;  // when detection stopped (< 0: it went on to MPI_Finalize)
  // Time between calls while detecting, after the first call. Relaxed: a
  // call of another thread may lose one add, which the comparison it is
  // used for can afford.
  std::atomic<double> compute_s_{0};
};

}  // namespace mheta::interpose
