#include "model/io_cost.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace mheta::model {

double synchronous_read_seconds(const Sweep& sweep, double read_overhead_s, double read_s_per_byte) {
  if (sweep.chunks <= 0) return 0;
  return static_cast<double>(sweep.chunks) * read_overhead_s + read_s_per_byte * static_cast<double>(sweep.bytes);
}

double write_seconds(const Sweep& sweep, double write_overhead_s, double write_s_per_byte) {
  if (sweep.chunks <= 0) return 0;
  return static_cast<double>(sweep.chunks) * write_overhead_s + write_s_per_byte * static_cast<double>(sweep.bytes);
}

double prefetch_read_seconds(const Sweep& sweep, double read_overhead_s, double async_overhead_s,
                             double read_s_per_byte, double overlap_s_per_byte) {
  if (sweep.chunks <= 0) return 0;
  const double full = static_cast<double>(sweep.icla_bytes);
  const double last = static_cast<double>(sweep.last_chunk_bytes());
  const double overheads = static_cast<double>(sweep.chunks) * (read_overhead_s + async_overhead_s);
  if (sweep.chunks == 1) return overheads + read_s_per_byte * last;
  // T_s for a full chunk read behind the compute on a full chunk ...
  const double stall_full = std::max(0.0, read_s_per_byte * full - overlap_s_per_byte * full);
  // ... and for the last (maybe partial) chunk behind the last full one.
  const double stall_last = std::max(0.0, read_s_per_byte * last - overlap_s_per_byte * full);
  return overheads + read_s_per_byte * full + static_cast<double>(sweep.chunks - 2) * stall_full + stall_last;
}

namespace {

// How far `seconds` is from what `cost` gives `count` requests of `bytes`
// (|ln| of the ratio); infinite when the regime predicts nothing.
double distance(std::int64_t count, std::int64_t bytes, double seconds, const RequestCost& cost) {
  const double predicted = static_cast<double>(count) * cost.overhead_s + static_cast<double>(bytes) * cost.s_per_byte;
  if (predicted <= 0) return std::numeric_limits<double>::infinity();
  if (seconds <= 0) return std::numeric_limits<double>::max();
  return std::abs(std::log(seconds / predicted));
}

}  // namespace

IoCalibration calibrate_io(std::int64_t count, std::int64_t bytes, double seconds, const RequestCost& disk,
                           const RequestCost& cached) {
  if (bytes <= 0 || count <= 0) return {disk.overhead_s, disk.s_per_byte};
  const bool in_cache =
      cached.measured() && distance(count, bytes, seconds, cached) < distance(count, bytes, seconds, disk);
  const double overhead_s = in_cache ? cached.overhead_s : disk.overhead_s;
  const double overheads = static_cast<double>(count) * overhead_s;
  if (seconds < overheads) return {seconds / static_cast<double>(count), 0.0};
  return {overhead_s, (seconds - overheads) / static_cast<double>(bytes)};
}

}  // namespace mheta::model
