#include "model/link.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mheta::model {

void Link::set_curve(std::span<const LinkPoint> points) {
  if (points.size() > curve.size()) {
    throw std::length_error("a link's curve holds at most " + std::to_string(kMaxLinkPoints) + " points");
  }
  curve_points = static_cast<int>(points.size());
  double floor = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    floor = std::max(floor, points[i].s);
    curve[i] = LinkPoint{points[i].bytes, floor};
  }
}

double Link::seconds(double bytes) const {
  if (curve_points == 0) return latency_s + s_per_byte * bytes;
  const LinkPoint* p = curve.data();
  if (bytes <= p[0].bytes) return p[0].s;
  // A short scan: a curve has a dozen points, and sizes are mostly small.
  int i = 1;
  while (i < curve_points && bytes > p[i].bytes) ++i;
  if (i < curve_points) {
    const LinkPoint& a = p[i - 1];
    const LinkPoint& b = p[i];
    return a.s + (b.s - a.s) * (bytes - a.bytes) / (b.bytes - a.bytes);
  }
  // Past the largest size measured: the slope of the last rise (a segment
  // the monotone repair flattened says nothing of the rate, so the chord
  // goes back to the last point that cost less); a curve with no rise, the
  // fitted line's slope.
  const LinkPoint& last = p[curve_points - 1];
  double slope = s_per_byte;
  for (int j = curve_points - 2; j >= 0; --j) {
    if (p[j].s < last.s) {
      slope = (last.s - p[j].s) / (last.bytes - p[j].bytes);
      break;
    }
  }
  return last.s + slope * (bytes - last.bytes);
}

double Link::gap_seconds(double bytes) const {
  // Without a curve, exactly beta * bytes (the model's hand-computed tests
  // compare to it), not (alpha + beta * bytes) - alpha.
  if (curve_points == 0) return s_per_byte * bytes;
  return seconds(bytes) - curve[0].s;
}

}  // namespace mheta::model
