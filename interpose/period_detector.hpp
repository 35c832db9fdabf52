#pragma once
// Automatic iteration detection: which loop of a rank's sequence of
// communication and I/O calls the run's time goes to (docs/interpose.md,
// "Which iteration").
//
// Candidate periods are proposed by the distance from a call to the last two
// calls with the same signature, and a few of them are followed at once: a
// candidate p holds a stretch of calls each equal to the call p before it.
// Once a stretch holds kRepeats whole periods it is a *loop*; the loop that
// has taken the most time so far is `best()`. A loop survives a short break
// (a body that changes now and then: a residual printed every tenth
// iteration) when the same period with the same calls resumes within
// kResumeWithin periods. An outer loop (an inner solver inside) is a loop of
// a longer period whose stretch spans the inner loops, so it takes more time
// than any of them and wins; a setup sequence (input broadcasts) wins only
// until the main loop has taken more time than it.
//
// Incremental: O(kCandidates) per call, no allocation after construction.
#include <array>
#include <cstdint>
#include <vector>

#include "interpose/call_signature.hpp"

namespace mheta::interpose {

class PeriodDetector {
 public:
  // Calls per iteration we can detect: a wavefront solver receives and sends
  // twice per plane of each sweep, and an iteration that reduces a residual
  // every fifth step over 700 planes holds 28000 calls.
  static constexpr int kMaxPeriod = 32768;
  static constexpr int kRepeats = 3;       // whole periods seen before a stretch is a loop
  static constexpr int kCandidates = 8;    // periods followed at once
  static constexpr int kResumeWithin = 4;  // periods a loop may break for and still be the same loop
  static constexpr int kPairsAfterBreak = 2;  // calls after a break whose pairs propose periods
  // Two loops whose times differ by less than this share took the same time
  // (an outer loop and the inner one it holds): the one with the longer
  // period wins, unless the shorter one runs on for kOccasional periods or
  // more between its breaks and they hold no collective MPI-IO: then the
  // breaks are an occasional call in its body (a residual reduced every 25th
  // iteration), not an outer loop. A checkpoint written collectively every
  // 25th step is the outer loop's work, which an iteration without it would
  // leave out. (By the calls, not their time: every rank of the file's
  // communicator makes them, so every rank decides alike, and the ranks'
  // captures are of one loop. By the calls from one break to the next, the
  // break's own included, not by the repetitions between them: those leave
  // out the calls around a break that do not match, a number that differs
  // from rank to rank, and a neighbour-list rebuild every 20th step, 21.75
  // steps of calls, had one rank capture a step and the other 20 steps.)
  static constexpr double kSameTime = 0.05;
  static constexpr int kOccasional = 20;

  // Where iterations end in a loop: at every `per_period`-th call of `kind`,
  // the kind of call the period holds fewest of (ties: the earliest in the
  // period). `seen`: the calls of it the loop has held so far (calls ahead
  // of the loop that fit its pattern included: the stretch cannot tell them
  // from the first iteration).
  struct Boundary {
    int kind = 0;
    int per_period = 0;
    std::int64_t seen = 0;
  };

  // A loop: a stretch of one period, or several with the same calls and
  // short breaks between them.
  struct Loop {
    std::int64_t id = 0;  // 0: none
    int period = 0;
    // The period's calls, whatever call it starts at (content_of()).
    struct Content {
      std::uint64_t seen = 0;     // as a loop holds them (call_signature.hpp, content)
      std::uint64_t classed = 0;  // by their classes
      // The same calls: a call whose sizes come to be seen varying changes
      // how the loop holds it, not its class.
      bool same_as(const Content& o) const { return seen == o.seen || classed == o.classed; }
      Content times(std::uint64_t k) const { return {seen * k, classed * k}; }
    } content;
    std::int64_t first_call = 0;   // its first call
    std::int64_t end_call = 0;     // one past the last call that fit it
    std::int64_t fit_calls = 0;    // calls that fit it (breaks left out)
    double start_time = 0;         // when its first call ended
    double end_time = 0;           // when its last call ended
    Boundary boundary;
    std::int64_t breaks = 0;  // times it broke off and resumed
    std::int64_t first_break = -1, last_break = -1;  // the calls it first and last broke off at
    // The calls from one of its breaks to the next, the break's own
    // included (0: it never broke off).
    double between_breaks() const;
    bool collective_io_in_breaks = false;  // a call of collective MPI-IO while it was broken off
    std::int64_t repetitions() const { return period > 0 ? fit_calls / period : 0; }
    double seconds() const { return end_time - start_time; }
  };

  PeriodDetector();

  // One call that ended at `time` (seconds): `signature` identifies it
  // (function, peer, ...: call_signature.hpp; a loose, classed or content
  // signature of 0 is the exact one); `kind` is its function (what
  // iterations are counted by); `collective_io`: collective MPI-IO
  // (kOccasional). A call is equal to another by same_call().
  void observe(const CallSignature& signature, int kind, double time, bool collective_io = false);

  // The loop the calls are in now (nullptr: none). Of several (p and 2p, an
  // inner and an outer loop), the one whose current stretch is longest.
  const Loop* live() const;
  // A loop still followed, or the best one (nullptr: gone).
  const Loop* find(std::int64_t id) const;
  // The repetitions of loop `id` since it last broke off, the calls being in
  // it now (0: they are not).
  std::int64_t unbroken(std::int64_t id) const;
  // Whether the next call begins a period of loop `id` where its current
  // stretch began: the program's own iteration start (its first call in the
  // loop), the same on every rank, so that captures of different ranks hold
  // the same iteration's messages in the same order.
  bool at_period_start(std::int64_t id) const;
  // The loop that has taken the most time so far (id 0: none yet).
  const Loop& best() const {
    return best_slot_ < 0 ? best_ : candidates_[static_cast<std::size_t>(best_slot_)].loop;
  }
  std::int64_t calls() const { return calls_; }
  // The calls of function `kind` so far, in loops or not.
  std::int64_t calls_of(int kind) const;
  // The functions of the last `period` calls and how many calls of each,
  // in the order they first came (the first kPeriodKinds functions).
  struct KindCalls {
    int kind = 0;
    int calls = 0;  // 0: none
  };
  static constexpr int kPeriodKinds = 8;
  std::array<KindCalls, kPeriodKinds> kinds_of_last(int period) const;

 private:
  // Where a loop broke off: the call, and its signature.
  struct Break {
    std::int64_t at = -1;
    std::uint64_t signature = 0;
  };
  static constexpr int kBreaks = 8;
  struct Candidate {
    int period = 0;          // 0: free
    std::int64_t run = 0;    // consecutive calls equal to the call `period` before them
    std::int64_t break_at = -1;  // the call that ended the loop's last stretch (-1: in one, or none)
    // The last kBreaks breaks, newest at breaks[0]: the distance to the last
    // two may be an outer period (an outer iteration holding one inner loop,
    // or two: a lower and an upper sweep), and so is the distance to the
    // last break by the same call (an outer iteration holding more inner
    // loops of this period: a line solver's forward and backward sweeps in
    // each direction).
    std::array<Break, kBreaks> breaks{};
    std::int64_t stretch_first = 0;  // the first call of the loop's current stretch
    Loop loop;               // id 0: not yet a loop
  };
  struct LastSeen {
    std::uint64_t signature = 0;
    std::int64_t last = -1;
    std::int64_t before = -1;
  };

  bool same(std::int64_t a, std::int64_t b) const;  // calls a and b, as same_call() says
  void propose(int period);
  void propose_weakly(int period);
  void follow(Candidate& c, int period);
  void note_break(Candidate& c, std::int64_t at, std::uint64_t signature);
  void propose_from_last(std::uint64_t key, std::int64_t i, bool weakly);
  void confirm(Candidate& c);
  void note_time(int slot);
  bool better(const Loop& a, const Loop& b) const;
  std::int64_t extend_back(int period, std::int64_t first, bool alike_but_varying_too) const;
  void retire(Candidate& c);
  void drop(Candidate& c);
  Loop::Content content_of(int period) const;
  Boundary boundary_of(int period, std::int64_t stretch, int kind) const;

  std::vector<CallSignature> ring_;  // the last kRing calls' signatures (call_signature.hpp)
  std::vector<std::int32_t> kinds_;
  std::vector<double> times_;
  std::vector<LastSeen> last_seen_;  // direct-mapped by signature
  mutable std::vector<std::int32_t> kind_counts_;  // scratch of boundary_of, all zero between calls
  std::vector<std::int64_t> kind_totals_;          // calls of each kind so far (calls_of())
  std::array<Candidate, kCandidates> candidates_{};
  // The call each candidate was proposed at (read by weak proposals only).
  std::array<std::int64_t, kCandidates> proposed_at_{};
  std::vector<std::int8_t> followed_;  // followed_[p]: whether a candidate follows period p
  int live_ = -1;  // the candidate whose loop the calls are in, -1: none
  std::int64_t last_break_ = -1;  // the call a loop last broke off at
  Loop best_;            // the best loop once its candidate no longer holds it
  int best_slot_ = -1;   // the candidate holding the best loop, -1: best_
  std::int64_t next_id_ = 1;
  std::int64_t calls_ = 0;
};

}  // namespace mheta::interpose
