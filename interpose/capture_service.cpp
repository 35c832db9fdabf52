#include "interpose/capture_service.hpp"

#include <mutex>

#include "interpose/boundary_counter.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose {

void CaptureService::on_start(Runtime& rt) {
  const Settings& s = rt.settings();
  mode_ = s.capture;
  capture_iteration_ = s.capture_iteration;
  if (mode_ == CaptureMode::call) {
    // The run's iterations: every call_every-th call of it (boundary_counter.hpp).
    for (int f = 0; f < static_cast<int>(Fn::count_); ++f) {
      const Fn named = static_cast<Fn>(f);
      if (s.call_name == fn_name(named)) count_boundaries(named, s.call_every, 0);
    }
  }
  std::lock_guard lock(rt.mutex());
  if (mode_ == CaptureMode::automatic) {
    loop_.start(rt);
    rt.capture_near();  // detection cannot tell in advance which iteration it captures
  } else if (mode_ == CaptureMode::mark || mode_ == CaptureMode::call) {
    take(rt, step_at_iteration_end(0, capture_iteration_, rt.phase()), true);
  }
}

void CaptureService::on_run_end(Runtime& rt) {
  if (mode_ == CaptureMode::automatic) loop_.settle_count(rt);
}

void CaptureService::on_finish(Runtime& rt) {
  if (mode_ == CaptureMode::automatic) loop_.finish(rt);
}

bool CaptureService::follows_calls(const Runtime& rt) const { return rt.phase() != Phase::done; }

namespace {

// The calls whose handlers tell on_call (handlers.hpp): not the wait/test
// calls, whose number varies, nor the setup of requests, files and
// communicators, nor probes.
bool seen_by_detection(Fn fn) {
  if (fn == Fn::count_) return false;  // a program mark
  switch (fn_category(fn)) {
    case Category::send:
    case Category::recv:
    case Category::sendrecv:
    case Category::isendrecv:
    case Category::isend:
    case Category::irecv:
    case Category::start:
    case Category::collective:
    case Category::icollective:
    case Category::file_read:
    case Category::file_write:
    case Category::file_iread:
    case Category::file_iwrite:
    case Category::neighbour:
    case Category::ineighbour:
    case Category::file_split_read:
    case Category::file_split_write:
    case Category::win_fence:  // of windows over every rank (window_handlers.cpp)
    case Category::win_transfer:
      return true;
    default:
      return false;
  }
}

}  // namespace

void CaptureService::before_call(Runtime& rt, Fn fn, ComputeSection& section) {
  if (mode_ != CaptureMode::automatic || !loop_.detecting()) return;
  loop_.note_compute(section.seconds);
  if (!seen_by_detection(fn)) return;
  std::lock_guard lock(rt.mutex());
  loop_.before_seen_call(rt, section.seconds);
}

// Automatic detection sees every call; in call: mode the named function's
// calls end iterations.
void CaptureService::on_call(Runtime& rt, const CallSeen& e) {
  if (rt.phase() == Phase::done) return;
  if (mode_ == CaptureMode::automatic && loop_.detecting()) {
    loop_.observe(rt, e.fn, e.signature);
  } else if (mode_ == CaptureMode::call && rt.settings().call_name == fn_name(e.fn)) {
    observe_named_call(rt, e.collective_point);
  }
}

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

void CaptureService::observe_named_call(Runtime& rt, bool collective_point) {
  ++named_calls_;
  if (named_calls_ % rt.settings().call_every != 0) return;
  advance_boundary(rt, collective_point);
}

void CaptureService::on_program_mark(Runtime& rt) {
  // The compute up to the mark belongs to the iteration it ends.
  rt.enter();
  rt.leave();
  std::lock_guard lock(rt.mutex());
  if (mode_ == CaptureMode::automatic) {
    // The program marks its iterations: trust the marks over detection, and
    // drop a capture detection started (the marks count from this one).
    // Also where detection concluded already (on a loop of the program's
    // setup, say): every rank gathers the profile at the same marked
    // iteration, so a rank that kept its own capture would leave the others
    // waiting there for it.
    mode_ = CaptureMode::mark;
    loop_.stop();
    rt.restart_waiting();
  }
  if (rt.phase() == Phase::done) {
    rt.note_iteration_ended();
    return;
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
