#pragma once
// Capture and iteration detection: decides which iteration is captured and
// moves the core's phase at its boundaries (MHETA_CAPTURE: automatic
// detection from the period of the call sequence, the program's marks,
// MPI_Pcontrol, or every k-th call of a named function; docs/interpose.md).
#include <cstdint>

#include "interpose/capture_boundary.hpp"
#include "interpose/period_detector.hpp"
#include "interpose/service.hpp"
#include "interpose/settings.hpp"

namespace mheta::interpose {

class CaptureService final : public Service {
 public:
  const char* name() const override { return "capture"; }
  void on_start(Runtime& rt) override;
  bool keeps_engaged(const Runtime& rt) const override { return follows_calls(rt); }
  bool follows_calls(const Runtime& rt) const override;
  void on_message(Runtime& rt, const MessageEvent& e) override;
  void on_collective(Runtime& rt, const CollectiveEvent& e) override;
  void on_file_io(Runtime& rt, const FileIoEvent& e) override;
  void on_program_mark(Runtime& rt) override;
  void on_pcontrol(Runtime& rt, int level) override;

 private:
  // Every rank must join every agreement until they are done.
  bool agreement_pending() const { return mode_ == CaptureMode::automatic && !agreement_done_; }
  void observe(Runtime& rt, Fn fn, std::uint64_t signature, bool collective_over_all, bool message);
  void observe_automatic(Runtime& rt, bool collective_over_all);
  void observe_named_call(Runtime& rt, Fn fn, bool collective_over_all);
  // An iteration ended: the one place the capture's boundary moves on.
  void advance_boundary(Runtime& rt, bool collective_point);
  void take(Runtime& rt, BoundaryStep step, bool collective_point);
  void auto_agreement(Runtime& rt);
  void count_detected_boundaries(int period);

  CaptureMode mode_ = CaptureMode::automatic;
  std::int64_t capture_iteration_ = 2;
  PeriodDetector detector_;
  std::int64_t collectives_ = 0;
  std::int64_t capture_end_collective_ = -1;
  std::int64_t capture_end_call_ = -1;
  std::int64_t named_calls_ = 0;
  bool end_is_collective_ = false;
  bool agreement_done_ = false;          // the ranks agreed on a capture, or to stop detecting
  std::int64_t last_message_call_ = -1;  // detector_.calls() at the last point-to-point message
};

}  // namespace mheta::interpose
