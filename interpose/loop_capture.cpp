#include "interpose/loop_capture.hpp"

#include <algorithm>

#include "interpose/boundary_counter.hpp"
#include "interpose/clock.hpp"
#include "interpose/runtime.hpp"
#include "model/accounting.hpp"

namespace mheta::interpose {

namespace {

// Automatic detection stops, and the wrappers go back to calling PMPI_
// alone, once the captured loop has repeated kConcludeRepetitions times in a
// row (an inner loop that breaks off every outer iteration never does), over
// kConcludeSeconds, and taken kConcludeShare of the run so far: a later loop
// would have to take longer than that to be the one where the time goes
// (docs/interpose.md, "Which iteration").
constexpr std::int64_t kConcludeRepetitions = 20;
constexpr double kConcludeSeconds = 2.0;
constexpr double kConcludeShare = 0.8;
// Periods of the captured loop whose median the profile holds: one period
// is one sample of compute times that move by tens of per cent from
// iteration to iteration, five keep a rare slow one out. The loop is
// captured again while detection goes on, each time it has repeated half
// as often again as at the last capture (repetitions 1, 2, 3, 4, 6, 9,
// 13, ...), and the last five kept: the first periods of a loop are its
// slowest (caches and pages touched first; halo_cart at 8 ranks: 270-400
// us of compute in its first iterations, a median of 210 us), and
// capturing every period would cost detection time at every call.
constexpr std::size_t kCapturedPeriods = 5;
// Periods the loop ran at least for its mean period to say how typical the
// captured ones are.
constexpr std::int64_t kPacePeriods = 4;
// A loop whose length varies is found as one of its lengths (a neighbour
// list rebuilt when an atom moved far enough: 7 to 11 steps apart), a
// loop that breaks off at every other length and is found again only
// where that length comes twice in a row: the detector counts the
// iterations of its stretches and leaves out the others, though each ends
// at the same calls (md_displacement_check: 15 of 72 rebuild periods, in
// 29 % of the run). So where detection never concluded, the run's
// iterations are the calls that end them over the whole run, if they are
// more than kMissedIterations more than the loop's and came at the pace
// of the captured periods (their mean within kWholeRunPace of the
// captured): an outer loop that went on at lengths the detector did not
// follow, not another loop's calls of the same function. The calls that
// end the captured iterations may come more often in a longer one (a check
// reduced every step after the fifth: LAMMPS's in.eam): then the calls of
// another function of the captured period that do come at that pace (its
// rebuild's MPI_Sendrecv) count them, of the functions the period holds
// fewest of first.
constexpr double kMissedIterations = 0.1;
constexpr double kWholeRunPace = 1.3;

}  // namespace

// Loops are timed in the run's clock: virtual when the virtual clock times
// the run, so that a loop's share is of the program's own time and not of
// the oversubscribed machine's (startup skew, time slices); else the wall
// clock at the last call's exit. The virtual clock stops before
// MPI_Finalize's services finish, its time stays.
double LoopCapture::loop_time(Runtime& rt) const { return virtual_ ? rt.clock().now() : rt.last_exit(); }

void LoopCapture::start(Runtime& rt) {
  virtual_ = rt.clock().on();
  started_at_ = loop_time(rt);
}

void LoopCapture::observe(Runtime& rt, Fn fn, const CallSignature& signature) {
  if (detector_.calls() == 0) first_call_at_ = loop_time(rt);
  detector_.observe(signature, static_cast<int>(fn), loop_time(rt), collective_file_io(fn));
  // The captured loop's figures, by its id, whichever loop the calls are in.
  if (captured_) {
    if (const PeriodDetector::Loop* loop = detector_.find(captured_loop_.id)) captured_loop_ = *loop;
  }
  if (rt.capturing() || begin_pending_) {
    if (detector_.unbroken(capture_loop_) == 0) {
      begin_pending_ = false;
      if (rt.capturing()) rt.drop_capture();  // the loop broke off before a whole period
    }
    return;
  }
  const PeriodDetector::Loop& best = detector_.best();
  const std::int64_t unbroken = detector_.unbroken(best.id);
  if (unbroken == 0) return;
  const bool another_loop = !captured_ || best.id != captured_loop_.id;
  if (!another_loop && unbroken >= kConcludeRepetitions && best.seconds() >= kConcludeSeconds &&
      best.seconds() >= kConcludeShare * (loop_time(rt) - started_at_)) {
    conclude(rt);
    return;
  }
  if (!another_loop && best.repetitions() < next_capture_at_) return;
  if (!detector_.at_period_start(best.id)) return;  // every rank captures from its iteration's start
  if (another_loop) periods_kept_ = 0;
  next_capture_at_ = best.repetitions() + std::max<std::int64_t>(1, best.repetitions() / 2);
  capture_loop_ = best.id;
  capture_end_call_ = detector_.calls() + best.period;
  begin_pending_ = true;
}

void LoopCapture::before_seen_call(Runtime& rt, double compute_s) {
  if (begin_pending_) {
    begin_pending_ = false;
    capture_began_at_ = loop_time(rt);
    rt.begin_capture();
  } else if (rt.capturing() && detector_.calls() == capture_end_call_) {
    captured_loop_ = *detector_.find(capture_loop_);
    captured_kinds_ = detector_.kinds_of_last(captured_loop_.period);
    captured_ = true;
    // The captured loop's iterations are counted from here, whether or not
    // detection ever concludes: accounting ends its iterations there, so a
    // run whose loop is too short to conclude still says where they end
    // (mheta validate times the runs after it by that call).
    count_boundaries();
    rt.keep_capture(compute_s, periods_kept_ > 0, kCapturedPeriods);
    keep_period_time(loop_time(rt) - capture_began_at_);
    ++periods_kept_;
  }
}

void LoopCapture::conclude(Runtime& rt) {
  detecting_ = false;
  concluded_at_ = loop_time(rt);
  count_boundaries();
  rt.stop_capturing();
}

// The run's iterations: the captured loop's, counted by the detector to
// here, and from here on by the wrappers, with one compare a call
// (boundary_counter.hpp). Called when the loop is captured, and again when
// detection concludes, with the detector's count then (at the run's end,
// settle_count()).
void LoopCapture::count_boundaries(CountBoundaries count) const {
  const PeriodDetector::Boundary& b = captured_loop_.boundary;
  if (captured_ && b.per_period > 0) count(static_cast<Fn>(b.kind), b.per_period, b.seen);
}

// The run's iterations counted by every call of one of the captured
// period's functions since the first call (kMissedIterations); whether
// they were (then settled: boundary_counter.hpp).
bool LoopCapture::count_whole_run(Runtime& rt) const {
  const PeriodDetector::Boundary& b = captured_loop_.boundary;
  if (!captured_ || b.per_period <= 0 || first_call_at_ < 0) return false;
  const double in_loop = static_cast<double>(b.seen / b.per_period);
  const double seconds = loop_time(rt) - first_call_at_;
  const auto keeps_pace = [&](const PeriodDetector::KindCalls& k) {
    if (k.calls <= 0) return false;
    const std::int64_t whole = detector_.calls_of(k.kind) / k.calls;
    if (static_cast<double>(whole) <= (1 + kMissedIterations) * in_loop) return false;
    const std::optional<double> paced = pace(seconds, whole);
    return paced && *paced <= kWholeRunPace && *paced >= 1 / kWholeRunPace;
  };
  // The loop's own function first, then the others, fewest calls first.
  std::array<PeriodDetector::KindCalls, PeriodDetector::kPeriodKinds + 1> order{};
  order[0] = {b.kind, b.per_period};
  std::copy(captured_kinds_.begin(), captured_kinds_.end(), order.begin() + 1);
  std::stable_sort(order.begin() + 1, order.end(), [](const auto& x, const auto& y) {
    return x.calls > 0 && (y.calls == 0 || x.calls < y.calls);
  });
  for (const PeriodDetector::KindCalls& k : order) {
    if (!keeps_pace(k)) continue;
    settle_boundaries(static_cast<Fn>(k.kind), k.calls, detector_.calls_of(k.kind));
    return true;
  }
  return false;
}

void LoopCapture::settle_count(Runtime& rt) {
  // The loop's whole count, as the detector saw it, or the run's.
  whole_run_ = detecting_ && count_whole_run(rt);
  if (detecting_ && !whole_run_) count_boundaries(settle_boundaries);
}

void LoopCapture::finish(Runtime& rt) {
  const double run = (virtual_ ? rt.clock().now() : now_s()) - started_at_;
  if (!captured_ || !rt.captured()) {
    if (detecting_) rt.set_loop_times({-1, compute_s_.load()});
    return;
  }
  // How sure the capture is: the loop's repetitions, and its share of the
  // run, from MPI_Init to now. Once detection concluded, the loop is taken
  // to go on at the pace it had then, for the iterations counted since.
  double loop = whole_run_ ? loop_time(rt) - first_call_at_ : captured_loop_.seconds();
  const PeriodDetector::Boundary& b = captured_loop_.boundary;
  if (concluded_at_ >= 0 && b.per_period > 0) {
    const std::int64_t then = std::max<std::int64_t>(1, b.seen / b.per_period);
    loop *= static_cast<double>(std::max(then, boundaries_counted())) / static_cast<double>(then);
  }
  // The loop's mean iteration, from its first kept period's start (the
  // loop's first period also holds the program's setup compute before its
  // first call), over the iterations counted since, as the prediction
  // prices the run (not the loop's repetitions: a loop that breaks off
  // often, as particle_drift's at 8 ranks, repeats in fewer periods than
  // it took). Once detection concluded, to the run's end, whatever the run
  // did after the loop.
  const double paced_to = concluded_at_ >= 0 ? started_at_ + run : captured_loop_.end_time;
  const std::optional<double> paced = whole_run_ ? pace(loop, boundaries_counted())
                                                : pace(paced_to - paced_from_.time,
                                                       boundaries_counted() - paced_from_.iterations);
  rt.set_capture_confidence({captured_loop_.repetitions(), run > 0 ? std::clamp(loop / run, 0.0, 1.0) : 0.0, paced});
  rt.set_loop_times({loop, -1});
}

void LoopCapture::keep_period_time(double seconds) {
  if (periods_kept_ == 0) {
    period_seconds_.clear();
    // The iterations counted to the end of this period, less its own.
    paced_from_ = {capture_began_at_, boundaries_counted() - 1};
  }
  if (period_seconds_.size() == kCapturedPeriods) period_seconds_.erase(period_seconds_.begin());
  period_seconds_.push_back(seconds);
}

// The loop's mean iteration, `seconds` over `periods`, against the median
// of the kept periods': a run whose iterations grow (a front that widens, a
// mesh refined as it goes) took longer than the captured ones. None when
// too few periods were timed to have a mean.
std::optional<double> LoopCapture::pace(double seconds, std::int64_t periods) const {
  if (periods < kPacePeriods || seconds <= 0) return std::nullopt;
  const double captured = model::median_of(period_seconds_);  // 0 for none
  if (captured <= 0) return std::nullopt;
  return seconds / static_cast<double>(periods) / captured;
}

}  // namespace mheta::interpose
