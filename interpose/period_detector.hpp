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
  // says it is a collective over all ranks; `kind` is its function (what a
  // boundary is counted by, below).
  void observe(std::uint64_t signature, bool collective, int kind = 0);

  // The smallest established period in calls (0 when none), and how many
  // collectives it holds.
  int period() const;
  int collectives_in_period(int period) const;
  std::int64_t calls() const { return calls_; }

  // Where iterations end once `period` is established: at every
  // `per_period`-th call of `kind`, the kind of call the period holds fewest
  // of (ties: the earliest in the period). `seen`: how many calls of it the
  // periodic stretch ending now holds (the iterations before detection, the
  // calls that fit the pattern ahead of the loop included).
  struct Boundary {
    int kind = 0;
    int per_period = 0;
    std::int64_t seen = 0;
  };
  Boundary boundary(int period) const;

 private:
  std::vector<std::uint64_t> history_;  // ring buffer of the last kMaxPeriod * kRepeats signatures
  std::vector<std::uint8_t> collective_;
  std::vector<std::int32_t> kind_;
  std::vector<std::int32_t> run_;  // run_[p]: consecutive calls equal to the call p before them
  std::int64_t calls_ = 0;
};

}  // namespace mheta::interpose
