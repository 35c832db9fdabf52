#pragma once
// A link's one-way message time as a function of the message's size: MHETA's
// T_{i->j} (§4.2.2), the line alpha + beta * bytes, or, when the cluster file
// carries one, the measured curve the line was fitted to (docs/model.md,
// "The link's cost curve").
#include <array>
#include <span>

namespace mheta::model {

// One measured one-way time: a message of `bytes` took `s` seconds.
struct LinkPoint {
  double bytes = 0;
  double s = 0;
};

// Enough for every size `mheta microbench` probes (x4 from 8 bytes up to its
// largest --max-message-bytes, 1 GiB: 14 sizes). Fixed, so that a Link is
// copied without allocating: the model copies links while it compiles a
// profile and when it reroutes the messages of ranks that own no rows.
inline constexpr int kMaxLinkPoints = 16;

struct Link {
  double latency_s = 0;   // alpha
  double s_per_byte = 0;  // beta
  // The measured curve, strictly increasing in bytes, times non-decreasing;
  // curve_points == 0: the line alone. Set through set_curve.
  std::array<LinkPoint, kMaxLinkPoints> curve{};
  int curve_points = 0;

  // Copies `points` (strictly increasing bytes, at most kMaxLinkPoints: the
  // reader checks both) and raises each time to at least the one before, so
  // that a noisy median never makes a larger message cheaper.
  void set_curve(std::span<const LinkPoint> points);
  std::span<const LinkPoint> curve_span() const { return {curve.data(), static_cast<std::size_t>(curve_points)}; }

  // The one-way time of a message of `bytes`.
  double seconds(double bytes) const;
  // The same time in LogGP's two parts (docs/model.md, "The sender's gap"):
  // what a message of no bytes takes, and what its bytes add (the sender's
  // gap). startup_seconds() + gap_seconds(n) == seconds(n).
  double startup_seconds() const { return curve_points == 0 ? latency_s : curve[0].s; }
  double gap_seconds(double bytes) const;
};

}  // namespace mheta::model
