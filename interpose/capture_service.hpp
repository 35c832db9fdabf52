#pragma once
// Capture and iteration detection: decides which iteration is captured and
// moves the core's phase at its boundaries (MHETA_CAPTURE: automatic
// detection of the loop where the run's time goes, loop_capture.hpp; the
// program's marks; MPI_Pcontrol; or every k-th call of a named function;
// docs/interpose.md).
#include <cstdint>

#include "interpose/capture_boundary.hpp"
#include "interpose/loop_capture.hpp"
#include "interpose/service.hpp"
#include "interpose/settings.hpp"

namespace mheta::interpose {

class CaptureService final : public Service {
 public:
  const char* name() const override { return "capture"; }
  void on_start(Runtime& rt) override;
  void on_run_end(Runtime& rt) override;
  void on_finish(Runtime& rt) override;
  bool keeps_engaged(const Runtime& rt) const override { return follows_calls(rt); }
  bool follows_calls(const Runtime& rt) const override;
  void before_call(Runtime& rt, Fn fn, ComputeSection& section) override;
  void on_call(Runtime& rt, const CallSeen& e) override;
  void on_program_mark(Runtime& rt) override;
  void on_pcontrol(Runtime& rt, int level) override;

 private:
  void observe_named_call(Runtime& rt, bool collective_point);
  // An iteration ended: the one place the capture's boundary moves on.
  void advance_boundary(Runtime& rt, bool collective_point);
  void take(Runtime& rt, BoundaryStep step, bool collective_point);

  CaptureMode mode_ = CaptureMode::automatic;
  std::int64_t capture_iteration_ = 2;
  LoopCapture loop_;
  std::int64_t named_calls_ = 0;
};

}  // namespace mheta::interpose
