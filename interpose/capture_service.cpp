#include "interpose/capture_service.hpp"

#include <mutex>

#include "interpose/boundary_counter.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose {

namespace {

// Automatic detection agrees on an iteration at every kAgreeEvery-th
// collective over all ranks: every rank reaches the k-th collective, so all
// join the agreement there and none can wait for another (docs/interpose.md).
constexpr std::int64_t kAgreeEvery = 4;

}  // namespace

void CaptureService::on_start(Runtime& rt) {
  const Settings& s = rt.settings();
  mode_ = s.capture;
  capture_iteration_ = s.capture_iteration;
  agreement_done_ = mode_ != CaptureMode::automatic;
  if (mode_ == CaptureMode::call) {
    // The run's iterations: every call_every-th call of it (boundary_counter.hpp).
    for (int f = 0; f < static_cast<int>(Fn::count_); ++f) {
      const Fn named = static_cast<Fn>(f);
      if (s.call_name == fn_name(named)) count_boundaries(named, s.call_every, 0);
    }
  }
  std::lock_guard lock(rt.mutex());
  if (mode_ == CaptureMode::automatic) {
    rt.capture_near();  // detection cannot tell in advance which iteration it captures
  } else if (mode_ == CaptureMode::mark || mode_ == CaptureMode::call) {
    take(rt, step_at_iteration_end(0, capture_iteration_, rt.phase()), true);
  }
}

bool CaptureService::follows_calls(const Runtime& rt) const { return rt.phase() != Phase::done || agreement_pending(); }

void CaptureService::on_message(Runtime& rt, const MessageEvent& e) {
  if (e.kind != MessageEvent::Kind::recv_completed) observe(rt, e.fn, e.signature, false, true);
}

void CaptureService::on_collective(Runtime& rt, const CollectiveEvent& e) {
  observe(rt, e.fn, e.signature, e.counts_for_detection, false);
}

void CaptureService::on_file_io(Runtime& rt, const FileIoEvent& e) { observe(rt, e.fn, e.signature, false, false); }

void CaptureService::take(Runtime& rt, BoundaryStep step, bool collective_point) {
  switch (step) {
    case BoundaryStep::near:
      rt.capture_near();
      break;
    case BoundaryStep::begin:
      rt.begin_capture();
      break;
    case BoundaryStep::end:
      rt.end_capture(collective_point);
      break;
    case BoundaryStep::none:
      break;
  }
}

void CaptureService::advance_boundary(Runtime& rt, bool collective_point) {
  rt.note_iteration_ended();
  take(rt, step_at_iteration_end(rt.iterations(), capture_iteration_, rt.phase()), collective_point);
}

// The detector goes no further than the capture; the wrappers count the
// run's iterations from here on, with one compare a call (boundary_counter.hpp).
void CaptureService::count_detected_boundaries(int period) {
  const PeriodDetector::Boundary b = detector_.boundary(period);
  if (b.per_period > 0) count_boundaries(static_cast<Fn>(b.kind), b.per_period, b.seen);
}

// Every rank joins every agreement until one concludes, whatever its own
// state: a rank that follows marks now, or captured on its own, asks all to
// stop detecting, so no rank is ever left waiting in an agreement.
void CaptureService::auto_agreement(Runtime& rt) {
  const bool detecting = mode_ == CaptureMode::automatic && rt.phase() == Phase::waiting;
  const int period = detecting ? detector_.period() : 0;
  const int local = period > 0 ? detector_.collectives_in_period(period) : 0;
  int mine[3] = {local, -local, detecting ? 0 : 1};
  int all[3] = {0, 0, 0};
  PMPI_Allreduce(mine, all, 3, MPI_INT, MPI_MAX, rt.private_comm());
  rt.leave();  // the agreement's time (it waits for every rank) is no compute of the program
  const int most = all[0];
  const int least = -all[1];
  if (all[2] > 0) {
    agreement_done_ = true;
    rt.refresh();
  } else if (least > 0 && most == least) {
    agreement_done_ = true;
    capture_end_collective_ = collectives_ + most;
    end_is_collective_ = true;
    count_detected_boundaries(period);
    rt.begin_capture();
  }
}

void CaptureService::observe(Runtime& rt, Fn fn, std::uint64_t signature, bool collective_over_all, bool message) {
  if (!follows_calls(rt)) return;
  if (collective_over_all) ++collectives_;
  if (mode_ == CaptureMode::automatic && rt.phase() != Phase::done) {
    detector_.observe(signature, collective_over_all, static_cast<int>(fn));
    if (message) last_message_call_ = detector_.calls();
  }
  if (agreement_pending() && collective_over_all && collectives_ % kAgreeEvery == 0) {
    const bool was_waiting = rt.phase() == Phase::waiting;
    auto_agreement(rt);
    if (was_waiting && rt.capturing()) return;  // the capture starts after this collective
  }
  if (rt.phase() == Phase::done) return;
  if (mode_ == CaptureMode::automatic) {
    observe_automatic(rt, collective_over_all);
  } else if (mode_ == CaptureMode::call && rt.settings().call_name == fn_name(fn)) {
    observe_named_call(rt, fn, collective_over_all);
  }
}

void CaptureService::observe_automatic(Runtime& rt, bool collective_over_all) {
  if (rt.phase() == Phase::waiting) {
    if (!collective_over_all && collectives_ == 0 && detector_.period() > 0) {
      // No collective at all so far: each rank captures one period of its
      // own calls and the profile is written at MPI_Finalize. The period
      // must exchange messages: a setup loop writing files is no iteration.
      const int period = detector_.period();
      if (last_message_call_ > detector_.calls() - period) {
        capture_end_call_ = detector_.calls() + period;
        end_is_collective_ = false;
        count_detected_boundaries(period);
        rt.begin_capture();
      }
    }
  } else if (end_is_collective_ ? collectives_ == capture_end_collective_
                                : capture_end_call_ >= 0 && detector_.calls() == capture_end_call_) {
    rt.end_capture(end_is_collective_);
  }
}

void CaptureService::observe_named_call(Runtime& rt, Fn /*fn*/, bool collective_over_all) {
  ++named_calls_;
  if (named_calls_ % rt.settings().call_every != 0) return;
  advance_boundary(rt, collective_over_all);
}

void CaptureService::on_program_mark(Runtime& rt) {
  // The compute up to the mark belongs to the iteration it ends.
  rt.enter();
  rt.leave();
  std::lock_guard lock(rt.mutex());
  if (rt.phase() == Phase::done) {
    rt.note_iteration_ended();
    return;
  }
  if (mode_ == CaptureMode::automatic) {
    // The program marks its iterations: trust the marks over detection, and
    // drop a capture detection started (the marks count from this one).
    mode_ = CaptureMode::mark;
    rt.restart_waiting();
  }
  // Every rank marks the end of the iteration (the program's contract), so
  // the profile is gathered there, where the advisor can use it right away.
  if (mode_ == CaptureMode::mark) advance_boundary(rt, true);
}

void CaptureService::on_pcontrol(Runtime& rt, int level) {
  if (mode_ != CaptureMode::pcontrol) return;
  rt.enter();
  rt.leave();
  std::lock_guard lock(rt.mutex());
  if (level > 0 && rt.phase() == Phase::waiting) {
    rt.begin_capture();
  } else if (level == 0 && rt.capturing()) {
    rt.end_capture(true);
  }
}

}  // namespace mheta::interpose
