#include "interpose/period_detector.hpp"

namespace mheta::interpose {

namespace {
constexpr std::size_t kHistory = static_cast<std::size_t>(PeriodDetector::kMaxPeriod) * PeriodDetector::kRepeats;
}

PeriodDetector::PeriodDetector()
    : history_(kHistory, 0), collective_(kHistory, 0), run_(static_cast<std::size_t>(kMaxPeriod) + 1, 0) {}

void PeriodDetector::observe(std::uint64_t signature, bool collective) {
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

}  // namespace mheta::interpose
