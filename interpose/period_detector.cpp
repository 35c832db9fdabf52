#include "interpose/period_detector.hpp"

#include <algorithm>

namespace mheta::interpose {

namespace {
constexpr std::size_t kHistory = static_cast<std::size_t>(PeriodDetector::kMaxPeriod) * PeriodDetector::kRepeats;
}

PeriodDetector::PeriodDetector()
    : history_(kHistory, 0),
      collective_(kHistory, 0),
      kind_(kHistory, 0),
      run_(static_cast<std::size_t>(kMaxPeriod) + 1, 0) {}

void PeriodDetector::observe(std::uint64_t signature, bool collective, int kind) {
  for (int p = 1; p <= kMaxPeriod; ++p) {
    if (calls_ < p) {
      run_[static_cast<std::size_t>(p)] = 0;
      continue;
    }
    const std::uint64_t before = history_[static_cast<std::size_t>(calls_ - p) % kHistory];
    std::int32_t& run = run_[static_cast<std::size_t>(p)];
    run = before == signature ? run + 1 : 0;
  }
  history_[static_cast<std::size_t>(calls_) % kHistory] = signature;
  collective_[static_cast<std::size_t>(calls_) % kHistory] = collective ? 1 : 0;
  kind_[static_cast<std::size_t>(calls_) % kHistory] = kind;
  ++calls_;
}

// Period p is established when the last kRepeats*p calls are p-periodic,
// i.e. the last (kRepeats-1)*p calls each equal the call p before them.
int PeriodDetector::period() const {
  for (int p = 1; p <= kMaxPeriod; ++p) {
    if (run_[static_cast<std::size_t>(p)] >= (kRepeats - 1) * p) return p;
  }
  return 0;
}

int PeriodDetector::collectives_in_period(int period) const {
  int n = 0;
  for (int i = 1; i <= period && i <= calls_; ++i) n += collective_[static_cast<std::size_t>(calls_ - i) % kHistory];
  return n;
}

// The stretch is the last run_[period] + period calls, every one equal to
// the one `period` before it: whole periods, each holding per_period calls of
// the kind, and a partial one at its start, whose calls are those of the
// last period at the same positions modulo `period`.
PeriodDetector::Boundary PeriodDetector::boundary(int period) const {
  Boundary b;
  if (period <= 0 || period > kMaxPeriod || calls_ < period) return b;
  auto kind_at = [&](std::int64_t call) { return kind_[static_cast<std::size_t>(call) % kHistory]; };
  const std::int64_t last = calls_ - period;  // first call of the last period
  for (std::int64_t i = last; i < calls_; ++i) {
    int n = 0;
    for (std::int64_t j = last; j < calls_; ++j) n += kind_at(j) == kind_at(i) ? 1 : 0;
    if (b.per_period == 0 || n < b.per_period) {
      b.kind = kind_at(i);
      b.per_period = n;
    }
  }
  const std::int64_t length = std::min<std::int64_t>(calls_, run_[static_cast<std::size_t>(period)] + period);
  const std::int64_t start = calls_ - length;
  const std::int64_t partial = length % period;
  b.seen = length / period * b.per_period;
  for (std::int64_t j = last; j < calls_; ++j) {
    if (kind_at(j) == b.kind && (j - start) % period < partial) ++b.seen;
  }
  return b;
}

}  // namespace mheta::interpose
