#pragma once
// Automatic iteration detection: the smallest period of a rank's sequence of
// communication and I/O calls that has repeated kRepeats times in a row.
// Incremental: O(kMaxPeriod) per call, no allocation after construction.
#include <cstdint>
#include <vector>

namespace mheta::interpose {

class PeriodDetector {
 public:
  static constexpr int kMaxPeriod = 512;  // calls per iteration we can detect
  static constexpr int kRepeats = 3;      // whole periods seen before we trust one

  PeriodDetector();

  // One call: `signature` identifies it (function, peer, ...); `collective`
  // says it is a collective over all ranks.
  void observe(std::uint64_t signature, bool collective);

  // The smallest established period in calls (0 when none), and how many
  // collectives it holds.
  int period() const;
  int collectives_in_period(int period) const;
  std::int64_t calls() const { return calls_; }

 private:
  std::vector<std::uint64_t> history_;  // ring buffer of the last kMaxPeriod * kRepeats signatures
  std::vector<std::uint8_t> collective_;
  std::vector<std::int32_t> run_;  // run_[p]: consecutive calls equal to the call p before them
  std::int64_t calls_ = 0;
};

}  // namespace mheta::interpose
