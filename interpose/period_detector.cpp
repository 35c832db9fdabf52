#include "interpose/period_detector.hpp"

#include "interpose/call_signature.hpp"

#include <algorithm>
#include <cmath>

namespace mheta::interpose {

namespace {
// The ring holds the kRepeats periods a loop is confirmed over, and the call
// before them (its end time is the loop's start).
constexpr std::int64_t kRing = 131072;
static_assert(kRing > static_cast<std::int64_t>(PeriodDetector::kMaxPeriod) * PeriodDetector::kRepeats);
constexpr std::size_t kLastSeen = 4096;
constexpr std::size_t kKinds = 1024;

std::size_t at(std::int64_t call) { return static_cast<std::size_t>(call & (kRing - 1)); }

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}

std::size_t kind_slot(int kind) { return static_cast<std::size_t>(kind) % kKinds; }
}  // namespace

PeriodDetector::PeriodDetector()
    : ring_(kRing), kinds_(kRing, 0), times_(kRing, 0), last_seen_(kLastSeen),
      kind_counts_(kKinds, 0), kind_totals_(kKinds, 0),
      followed_(static_cast<std::size_t>(kMaxPeriod) + 1, 0) {}

void PeriodDetector::observe(const CallSignature& call, int kind, double time, bool collective_io) {
  const std::int64_t i = calls_;
  const std::uint64_t signature = call.exact;
  const CallSignature here{.exact = signature,
                           .loose = call.loose != 0 ? call.loose : signature & ~kVaries,
                           .classed = call.classed != 0 ? call.classed : signature,
                           .content = call.content != 0 ? call.content : signature};
  ring_[at(i)] = here;
  kinds_[at(i)] = kind;
  times_[at(i)] = time;
  ++kind_totals_[kind_slot(kind)];
  ++calls_;

  // The distances to the last two calls alike are the periods this call
  // could repeat with (the second: a call twice in an iteration). So are,
  // while a loop is broken off, the distances to the last two pairs of calls
  // alike (this call and the one before it): two events of their own
  // periods (a residual every 5th step, an output every 3rd) break a step's
  // loop and follow each other once in the period of both, 15 steps, which
  // neither call alone is ever that far from its last. Such a proposal is
  // weak (propose_weakly()), and only made where a loop just broke off:
  // elsewhere, pairs would propose every distance an irregular inner loop
  // makes, or that calls which never repeat make.
  propose_from_last(signature, i, false);
  if (last_break_ >= 0 && i - last_break_ <= kPairsAfterBreak) {
    propose_from_last(mix(ring_[at(i - 1)].exact + 0x9e3779b97f4a7c15ULL) ^ signature, i, true);
  }

  live_ = -1;
  for (int k = 0; k < kCandidates; ++k) {
    Candidate& c = candidates_[static_cast<std::size_t>(k)];
    if (c.period == 0 || i < c.period) continue;
    const bool in_loop = c.loop.id != 0 && c.break_at < 0;
    if (same_call(ring_[at(i - c.period)], here)) {
      ++c.run;
      if (in_loop) {
        c.loop.end_call = i + 1;
        c.loop.end_time = time;
        ++c.loop.fit_calls;
        if (kind == c.loop.boundary.kind) ++c.loop.boundary.seen;
      } else if (c.run >= static_cast<std::int64_t>(kRepeats - 1) * c.period) {
        confirm(c);
      }
    } else {
      if (in_loop) {
        note_break(c, i, signature);
        c.break_at = i;
      }
      c.run = 0;
    }
    // A checkpoint in the loop's break (the call that broke it, or one
    // before it resumed) is work of an outer loop's (better()).
    if (collective_io && c.loop.id != 0 && c.break_at >= 0) c.loop.collective_io_in_breaks = true;
    // A loop whose calls have not resumed within kResumeWithin periods of
    // its break is over (best_ keeps it if it took the most time).
    if (c.break_at >= 0 && (i - c.run) - c.break_at > static_cast<std::int64_t>(kResumeWithin) * c.period) {
      retire(c);
      c.loop = Loop{};
      c.break_at = -1;
    }
    if (c.loop.id == 0 || c.break_at >= 0) continue;
    note_time(k);
    // The longest stretch is the loop the calls are in: the outer loop
    // around an inner one.
    if (live_ < 0) {
      live_ = k;
    } else {
      const Candidate& l = candidates_[static_cast<std::size_t>(live_)];
      if (c.run + c.period > l.run + l.period || (c.run + c.period == l.run + l.period && c.period > l.period)) live_ = k;
    }
  }
}

// The distances from call i to the last two calls (or pairs of calls) of
// key `key`, proposed.
void PeriodDetector::propose_from_last(std::uint64_t key, std::int64_t i, bool weakly) {
  LastSeen& seen = last_seen_[mix(key) & (kLastSeen - 1)];
  if (seen.signature != key) seen = {key, -1, -1};
  for (const std::int64_t before : {seen.last, seen.before}) {
    if (before < 0) continue;
    const int period = static_cast<int>(std::min<std::int64_t>(i - before, kMaxPeriod + 1));
    if (weakly) {
      propose_weakly(period);
    } else {
      propose(period);
    }
  }
  seen.before = seen.last;
  seen.last = i;
}

// A loop that breaks at regular distances is the inner loop of an outer one
// of that period (whose calls may all recur within it): the distances to the
// last two breaks, and to the last break by the same call, are proposed.
void PeriodDetector::note_break(Candidate& c, std::int64_t at, std::uint64_t signature) {
  const auto distance = [&](const Break& b) { return static_cast<int>(std::min<std::int64_t>(at - b.at, kMaxPeriod + 1)); };
  for (int k = 0; k < 2; ++k) {
    if (c.breaks[static_cast<std::size_t>(k)].at >= 0) propose(distance(c.breaks[static_cast<std::size_t>(k)]));
  }
  for (const Break& b : c.breaks) {
    if (b.at >= 0 && b.signature == signature) {
      propose(distance(b));
      break;
    }
  }
  last_break_ = at;
  std::move_backward(c.breaks.begin(), c.breaks.end() - 1, c.breaks.end());
  c.breaks[0] = {at, signature};
}

// A new period to follow, in the place of the one least likely to matter: a
// free slot, else the candidate with the shortest stretch that holds no loop.
void PeriodDetector::propose(int period) {
  if (period < 1 || period > kMaxPeriod || followed_[static_cast<std::size_t>(period)]) return;
  Candidate* victim = nullptr;
  for (Candidate& c : candidates_) {
    if (c.loop.id != 0) continue;
    if (victim == nullptr || c.period == 0 || (victim->period != 0 && c.run < victim->run)) victim = &c;
  }
  if (victim != nullptr) follow(*victim, period);  // else every slot holds a loop
}

// A weaker proposal (a pair of calls after a break): only a free slot, or a
// candidate that has had a whole period to repeat and does not, so that it
// never pushes out one that has just begun or is being confirmed.
void PeriodDetector::propose_weakly(int period) {
  if (period < 1 || period > kMaxPeriod || followed_[static_cast<std::size_t>(period)]) return;
  for (std::size_t k = 0; k < candidates_.size(); ++k) {
    Candidate& c = candidates_[k];
    if (c.period == 0 || (c.loop.id == 0 && c.run == 0 && calls_ - proposed_at_[k] > c.period)) {
      follow(c, period);
      return;
    }
  }
}

void PeriodDetector::follow(Candidate& c, int period) {
  drop(c);
  c.period = period;
  proposed_at_[static_cast<std::size_t>(&c - candidates_.data())] = calls_;
  followed_[static_cast<std::size_t>(period)] = 1;
}

// A candidate's stretch holds kRepeats whole periods: a loop, or the loop it
// broke from, resumed.
void PeriodDetector::confirm(Candidate& c) {
  const Loop::Content content = content_of(c.period);
  // Twice a known loop's period is no new loop.
  for (const Candidate& other : candidates_) {
    if (&other == &c || other.loop.id == 0 || other.break_at >= 0 || c.period % other.period != 0) continue;
    if (content.same_as(other.loop.content.times(static_cast<std::uint64_t>(c.period / other.period)))) {
      drop(c);
      return;
    }
  }
  const std::int64_t end = calls_;
  const std::int64_t stretch = std::min<std::int64_t>(end, c.run + c.period);
  const double end_time = times_[at(end - 1)];
  if (c.loop.id != 0 && c.loop.content.same_as(content)) {
    c.loop.content = content;  // the loop's calls as they are seen now
    c.loop.end_call = end;
    c.loop.end_time = end_time;
    c.loop.fit_calls += stretch;
    if (c.loop.breaks++ == 0) c.loop.first_break = c.break_at;
    c.loop.last_break = c.break_at;
    c.stretch_first = end - stretch;
    c.loop.boundary.seen += boundary_of(c.period, stretch, c.loop.boundary.kind).seen;
  } else {
    retire(c);
    Loop loop;
    loop.id = next_id_++;
    loop.period = c.period;
    loop.content = content;
    // The candidate was proposed late (an outer period is known only once
    // it has been seen): the loop began where its pattern began.
    loop.first_call = extend_back(c.period, end - stretch, false);
    loop.end_call = end;
    loop.fit_calls = end - loop.first_call;
    loop.start_time = times_[at(loop.first_call > 0 ? loop.first_call - 1 : 0)];
    loop.end_time = end_time;
    // Its iterations are counted from where it began, its sizes seen by
    // their class then; its time and repetitions, which decide which loop
    // the run's time goes to, from where its calls were the same: an
    // outer loop extended over more of them than the inner loop it holds
    // (broken off at the outer loop's extra call) would take more time by
    // as much, and ranks would choose differently where that is near
    // kSameTime (particle_exchange at 8 ranks: a step on some ranks, 20
    // steps on others).
    loop.boundary = boundary_of(c.period, end - extend_back(c.period, loop.first_call, true), -1);
    c.loop = loop;
    c.stretch_first = loop.first_call;
  }
  c.break_at = -1;
}

// Where the calls before `first` go on repeating with `period`, the loop
// began earlier; as far back as the ring holds them. A call whose sizes
// vary is seen so only from its 17th new size on (varying_values.hpp), and
// the loop found from there: before, the same call seen by its size class
// is the loop's too (`alike_but_varying_too`), so the run's iterations are
// counted from the first (particle_exchange: 384-391 of 400 before).
// Each earlier call is compared with its place in the stretch's first
// period, not with the call a period later: that may be an earlier call
// too, its size seen by another class.
std::int64_t PeriodDetector::extend_back(int period, std::int64_t first, bool alike_but_varying_too) const {
  const std::int64_t oldest = std::max<std::int64_t>(0, calls_ - kRing + 1);
  const std::int64_t stretch = first;
  while (first - 1 >= oldest && stretch + period <= calls_) {
    const std::int64_t place = stretch + ((first - 1 - stretch) % period + period) % period;
    if (!same(first - 1, place) &&
        !(alike_but_varying_too && alike_but_varying(ring_[at(first - 1)].loose, ring_[at(place)].loose))) {
      break;
    }
    --first;
  }
  return first;
}

// Whether loop a explains the run's time better than loop b (kSameTime,
// kOccasional).
bool PeriodDetector::better(const Loop& a, const Loop& b) const {
  if (b.id == 0) return true;
  const double most = std::max(a.seconds(), b.seconds());
  if (std::abs(a.seconds() - b.seconds()) > kSameTime * most) return a.seconds() > b.seconds();
  if (a.period == b.period) return a.seconds() > b.seconds();
  const Loop& inner = a.period < b.period ? a : b;
  const bool occasional = inner.breaks > 0 && inner.between_breaks() >= kOccasional * inner.period &&
                          !inner.collective_io_in_breaks;
  return occasional ? &inner == &a : &inner != &a;
}

// From its first break to its last (the stretches before the first and
// after the last are partial: the loop was found, or the run ended, part
// way); with one break, the whole loop.
double PeriodDetector::Loop::between_breaks() const {
  if (breaks == 0) return 0;
  if (breaks == 1) return static_cast<double>(end_call - first_call);
  return static_cast<double>(last_break - first_break) / static_cast<double>(breaks - 1);
}

void PeriodDetector::note_time(int slot) {
  if (slot == best_slot_) return;
  if (better(candidates_[static_cast<std::size_t>(slot)].loop, best())) best_slot_ = slot;
}

std::int64_t PeriodDetector::unbroken(std::int64_t id) const {
  for (const Candidate& c : candidates_) {
    if (c.loop.id == id && id != 0) return c.break_at < 0 ? (c.run + c.period) / c.period : 0;
  }
  return 0;
}

bool PeriodDetector::at_period_start(std::int64_t id) const {
  for (const Candidate& c : candidates_) {
    if (c.loop.id == id && id != 0) return c.break_at < 0 && (calls_ - c.stretch_first) % c.period == 0;
  }
  return false;
}

const PeriodDetector::Loop* PeriodDetector::find(std::int64_t id) const {
  if (id == 0) return nullptr;
  for (const Candidate& c : candidates_) {
    if (c.loop.id == id) return &c.loop;
  }
  return best().id == id ? &best() : nullptr;
}

std::int64_t PeriodDetector::calls_of(int kind) const { return kind_totals_[kind_slot(kind)]; }

std::array<PeriodDetector::KindCalls, PeriodDetector::kPeriodKinds> PeriodDetector::kinds_of_last(int period) const {
  std::array<KindCalls, kPeriodKinds> kinds{};
  const std::int64_t first = std::max<std::int64_t>(0, calls_ - period);
  std::vector<std::int32_t>& counts = kind_counts_;
  for (std::int64_t j = first; j < calls_; ++j) ++counts[kind_slot(kinds_[at(j)])];
  std::size_t n = 0;
  for (std::int64_t j = first; j < calls_ && n < kinds.size(); ++j) {
    std::int32_t& count = counts[kind_slot(kinds_[at(j)])];
    if (count == 0) continue;  // taken already
    kinds[n++] = {kinds_[at(j)], count};
    count = 0;
  }
  for (std::int64_t j = first; j < calls_; ++j) counts[kind_slot(kinds_[at(j)])] = 0;
  return kinds;
}

bool PeriodDetector::same(std::int64_t a, std::int64_t b) const {
  return same_call(ring_[at(a)], ring_[at(b)]);
}

// A candidate no longer follows its period.
void PeriodDetector::drop(Candidate& c) {
  retire(c);
  followed_[static_cast<std::size_t>(c.period)] = 0;
  c = Candidate{};
}

// A candidate is about to drop its loop: best() keeps a copy.
void PeriodDetector::retire(Candidate& c) {
  if (best_slot_ >= 0 && &candidates_[static_cast<std::size_t>(best_slot_)] == &c) {
    best_ = c.loop;
    best_slot_ = -1;
  }
}

const PeriodDetector::Loop* PeriodDetector::live() const {
  return live_ < 0 ? nullptr : &candidates_[static_cast<std::size_t>(live_)].loop;
}

// The last period's calls summed, as loops hold them (call_signature.hpp)
// and by their classes: the same whatever call it starts at, and
// whichever way its calls were seen.
PeriodDetector::Loop::Content PeriodDetector::content_of(int period) const {
  Loop::Content sum;
  for (std::int64_t j = calls_ - period; j < calls_; ++j) {
    sum.seen += mix(ring_[at(j)].content);
    sum.classed += mix(ring_[at(j)].classed);
  }
  return sum;
}

// Over the last `stretch` calls, `period`-periodic: whole periods, each
// holding per_period calls of the kind, and a partial one at its start,
// whose calls are those of the last period at the same positions modulo
// `period`. `kind` < 0: the kind the last period holds fewest of.
PeriodDetector::Boundary PeriodDetector::boundary_of(int period, std::int64_t stretch, int kind) const {
  Boundary b;
  const std::int64_t last = calls_ - period;  // first call of the last period
  std::vector<std::int32_t>& counts = kind_counts_;
  for (std::int64_t j = last; j < calls_; ++j) ++counts[kind_slot(kinds_[at(j)])];
  if (kind >= 0) {
    b.kind = kind;
    b.per_period = counts[kind_slot(kind)];
  } else {
    for (std::int64_t j = last; j < calls_; ++j) {
      const int n = counts[kind_slot(kinds_[at(j)])];
      if (b.per_period == 0 || n < b.per_period) {
        b.kind = kinds_[at(j)];
        b.per_period = n;
      }
    }
  }
  for (std::int64_t j = last; j < calls_; ++j) counts[kind_slot(kinds_[at(j)])] = 0;
  const std::int64_t start = calls_ - stretch;
  const std::int64_t partial = stretch % period;
  b.seen = stretch / period * b.per_period;
  for (std::int64_t j = last; j < calls_; ++j) {
    if (kinds_[at(j)] == b.kind && (j - start) % period < partial) ++b.seen;
  }
  return b;
}

}  // namespace mheta::interpose
