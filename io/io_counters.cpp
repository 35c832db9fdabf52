#include "io/io_counters.hpp"

namespace mheta::io {

IoCounters IoCounters::operator-(const IoCounters& before) const {
  return {reads - before.reads,
          read_bytes - before.read_bytes,
          writes - before.writes,
          write_bytes - before.write_bytes,
          read_seconds - before.read_seconds,
          issue_seconds - before.issue_seconds,
          write_seconds - before.write_seconds,
          wait_seconds - before.wait_seconds};
}

IoCounters& io_counters() {
  static IoCounters counters;
  return counters;
}

}  // namespace mheta::io
