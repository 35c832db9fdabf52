#include "interpose/period_detector.hpp"

#include "interpose/call_signature.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace mheta::interpose {
namespace {

// A synthetic rank: calls of a kind (the signature is the kind unless
// given), each ending `seconds` after the one before.
struct Rank {
  PeriodDetector d;
  double now = 0;
  void call(int kind, double seconds, std::uint64_t signature = 0) {
    now += seconds;
    d.observe({.exact = signature != 0 ? signature : static_cast<std::uint64_t>(kind)}, kind, now);
  }
  void calls(const std::vector<int>& kinds, double seconds_each) {
    for (int k : kinds) call(k, seconds_each);
  }
};

constexpr double kUs = 1e-6;
constexpr double kMs = 1e-3;

TEST(PeriodDetector, ALoopAfterThreeRepetitions) {
  Rank r;
  r.calls({100, 101, 102}, kUs);
  const std::vector<int> iteration = {1, 2, 2, 3, 4};
  r.calls(iteration, kMs);
  r.calls(iteration, kMs);
  EXPECT_EQ(r.d.live(), nullptr);  // two repetitions are not enough
  EXPECT_EQ(r.d.best().id, 0);
  r.calls(iteration, kMs);
  ASSERT_NE(r.d.live(), nullptr);
  EXPECT_EQ(r.d.live()->period, 5);
  EXPECT_EQ(r.d.live()->repetitions(), 3);
  EXPECT_EQ(r.d.best().id, r.d.live()->id);
  // 15 calls of 1 ms, timed from the end of the call before the loop.
  EXPECT_NEAR(r.d.best().seconds(), 15 * kMs, 1e-9);
}

// Every call of a kind is counted, in a loop or out of one (a setup call,
// the calls of a break): the run's iterations of a loop whose length varies
// are counted by them (loop_capture.cpp, kMissedIterations), where the
// loop's own count leaves out the periods it broke off in.
TEST(PeriodDetector, CountsEveryCallOfAKind) {
  Rank r;
  r.calls({7, 8}, kUs);
  const std::vector<int> period = {7, 1, 2, 1, 2};
  for (int k = 0; k < 6; ++k) r.calls(period, kMs);
  r.calls({7, 1, 2, 3, 1, 2}, kMs);  // a longer period breaks the loop off
  for (int k = 0; k < 4; ++k) r.calls(period, kMs);
  EXPECT_EQ(r.d.calls_of(7), 12);
  EXPECT_EQ(r.d.calls_of(1), 2 * 11);
  EXPECT_EQ(r.d.calls_of(3), 1);
  EXPECT_EQ(r.d.calls_of(5), 0);
  ASSERT_NE(r.d.live(), nullptr);
  EXPECT_EQ(r.d.live()->period, 5);
  // The loop's own count of its boundary calls leaves the broken period out.
  EXPECT_LT(r.d.live()->boundary.seen, r.d.calls_of(r.d.live()->boundary.kind));
  // The last period's functions, in the order they came, and their calls.
  const auto kinds = r.d.kinds_of_last(5);
  EXPECT_EQ(kinds[0].kind, 7);
  EXPECT_EQ(kinds[0].calls, 1);
  EXPECT_EQ(kinds[1].kind, 1);
  EXPECT_EQ(kinds[1].calls, 2);
  EXPECT_EQ(kinds[2].kind, 2);
  EXPECT_EQ(kinds[2].calls, 2);
  EXPECT_EQ(kinds[3].calls, 0);
  // And the scratch it counts them in is left clear: the same again.
  EXPECT_EQ(r.d.kinds_of_last(5)[1].calls, 2);
}

// A capture begins where the program's iteration begins, whichever call
// the loop was found at: after a setup call that is no part of it, at its
// first call (1), every period.
TEST(PeriodDetector, PeriodsStartWhereTheLoopBegan) {
  Rank r;
  r.call(9, kMs);
  for (int it = 0; it < 4; ++it) r.calls({1, 2, 3}, kMs);
  const std::int64_t id = r.d.best().id;
  EXPECT_TRUE(r.d.at_period_start(id));
  r.call(1, kMs);
  EXPECT_FALSE(r.d.at_period_start(id));
  r.call(2, kMs);
  EXPECT_FALSE(r.d.at_period_start(id));
  r.call(3, kMs);
  EXPECT_TRUE(r.d.at_period_start(id));
}

TEST(PeriodDetector, TheSmallestPeriodAndNotItsMultiples) {
  Rank r;
  for (int i = 0; i < 60; ++i) r.call(1 + i % 2, kMs);
  ASSERT_NE(r.d.live(), nullptr);
  EXPECT_EQ(r.d.live()->period, 2);
  EXPECT_EQ(r.d.best().period, 2);
  EXPECT_EQ(r.d.live()->repetitions(), 30);
}

TEST(PeriodDetector, NoRepetitionNoLoop) {
  Rank r;
  for (int i = 0; i < 400; ++i) r.call(1, kMs, static_cast<std::uint64_t>(i) * i + 1);
  EXPECT_EQ(r.d.live(), nullptr);
  EXPECT_EQ(r.d.best().id, 0);
}

// A wavefront solver's setup: its input parameters broadcast one by one
// (a quick loop of ten, repeating first), then the main loop of sends and
// receives with milliseconds of compute. The main loop takes the run's time
// and wins, though the broadcasts repeated first and more often than three
// times.
TEST(PeriodDetector, TheMainLoopWinsOverSetupBroadcasts) {
  Rank r;
  for (int i = 0; i < 10; ++i) r.call(7, kUs);  // MPI_Bcast of 8 bytes
  ASSERT_NE(r.d.live(), nullptr);
  EXPECT_EQ(r.d.best().period, 1);
  const std::int64_t setup = r.d.best().id;
  const std::vector<int> sweep = {1, 2, 1, 2, 3};  // recv, send down a pipeline, then a reduction
  for (int it = 0; it < 4; ++it) r.calls(sweep, 1 * kMs);
  EXPECT_NE(r.d.best().id, setup);
  EXPECT_EQ(r.d.best().period, 5);
  EXPECT_EQ(r.d.best().repetitions(), 4);
  EXPECT_EQ(r.d.best().boundary.kind, 3);
  EXPECT_EQ(r.d.best().boundary.seen, 4);
}

// A long setup loop (many cheap file reads) keeps the lead until the main
// loop has taken more time than it: the loop where the time goes.
TEST(PeriodDetector, ASetupLoopLeadsOnlyUntilTheMainLoopHasTakenMoreTime) {
  Rank r;
  for (int i = 0; i < 200; ++i) r.call(9, 0.1 * kMs);  // 20 ms of reads
  const std::int64_t setup = r.d.best().id;
  ASSERT_NE(setup, 0);
  const std::vector<int> iteration = {1, 2, 3};
  for (int it = 0; it < 5; ++it) r.calls(iteration, 1 * kMs);  // 15 ms
  EXPECT_EQ(r.d.best().id, setup);
  for (int it = 0; it < 5; ++it) r.calls(iteration, 1 * kMs);  // 30 ms
  EXPECT_EQ(r.d.best().period, 3);
  EXPECT_EQ(r.d.best().repetitions(), 10);
}

// An outer iteration: a broadcast, an inner solver loop of six
// send/receive pairs, a reduction. The inner loop is found first; the outer
// one, whose iteration holds the inner loop, wins once it has repeated.
TEST(PeriodDetector, NestedLoopsCaptureTheOuterIteration) {
  Rank r;
  std::vector<int> outer = {7};
  for (int k = 0; k < 6; ++k) {
    outer.push_back(1);
    outer.push_back(2);
  }
  outer.push_back(3);
  r.calls(outer, kMs);
  EXPECT_EQ(r.d.best().period, 2);  // the inner loop, for now
  for (int it = 1; it < 10; ++it) r.calls(outer, kMs);
  ASSERT_NE(r.d.live(), nullptr);
  EXPECT_EQ(r.d.best().period, 14);
  EXPECT_EQ(r.d.live()->period, 14);
  EXPECT_EQ(r.d.best().boundary.per_period, 1);
  EXPECT_EQ(r.d.best().boundary.seen, 10);  // one broadcast an outer iteration
  // Inside an inner loop, the calls are still in the outer one.
  r.calls({7, 1, 2, 1, 2, 1, 2, 1}, kMs);
  ASSERT_NE(r.d.live(), nullptr);
  EXPECT_EQ(r.d.live()->period, 14);
}

// A first iteration unlike the rest (extra exchanges while a solver starts
// up) is no part of the loop's period; it still ends with the reduction that
// ends every iteration, so the count holds it: 13 iterations.
TEST(PeriodDetector, AFirstIterationUnlikeTheRest) {
  Rank r;
  r.calls({5, 1, 2, 6, 3}, 3 * kMs);
  for (int it = 0; it < 12; ++it) r.calls({1, 2, 3}, kMs);
  ASSERT_NE(r.d.live(), nullptr);
  EXPECT_EQ(r.d.best().period, 3);
  EXPECT_EQ(r.d.best().boundary.kind, 3);
  EXPECT_EQ(r.d.best().boundary.seen, 13);
  // The loop's time: the 12 iterations and the first one's last call, which
  // fits the pattern; not the rest of the first iteration.
  EXPECT_NEAR(r.d.best().seconds(), 36 * kMs + 3 * kMs, 1e-9);
}

// A body that changes now and then (a residual reduced every 25th
// iteration) is one loop over the whole run, not a new loop after every
// change, nor a 25-iteration loop: it runs on for kOccasional repetitions
// or more between its breaks. Its repetitions leave out only the calls
// around the breaks.
TEST(PeriodDetector, AnOccasionalExtraCallLeavesOneLoop) {
  Rank r;
  const std::vector<int> iteration = {1, 2, 2, 3};
  std::int64_t first = 0;
  for (int it = 0; it < 150; ++it) {
    r.calls(iteration, kMs);
    if (it % 25 == 24) r.call(8, kMs);
    if (it == 10) first = r.d.best().id;
  }
  ASSERT_NE(first, 0);
  EXPECT_EQ(r.d.best().id, first);
  EXPECT_EQ(r.d.best().period, 4);
  EXPECT_GT(r.d.best().repetitions(), 130);
  EXPECT_LE(r.d.best().repetitions(), 150);
  EXPECT_GT(r.d.best().seconds(), 0.9 * r.now);
}

// The same shape with a break every 7th iteration is an outer loop of 7
// inner iterations and a call of its own, like a time step around a solver
// of 7 iterations: the outer iteration wins, found from the distance
// between the inner loop's breaks.
TEST(PeriodDetector, FrequentBreaksMakeAnOuterLoop) {
  Rank r;
  const std::vector<int> iteration = {1, 2, 2, 3};
  for (int it = 0; it < 70; ++it) {
    r.calls(iteration, kMs);
    if (it % 7 == 6) r.call(8, kMs);
  }
  EXPECT_EQ(r.d.best().period, 7 * 4 + 1);
  EXPECT_EQ(r.d.best().boundary.kind, 8);
  EXPECT_EQ(r.d.best().boundary.seen, 10);
}

// A solver's inner loop whose calls are all alike (every receive posted
// with MPI_ANY_TAG, a worker's task loop): no call is once an outer
// iteration, so the outer period is proposed by the distance between the
// inner loop's breaks.
TEST(PeriodDetector, AnOuterLoopOfCallsAllAlike) {
  Rank r;
  for (int step = 0; step < 20; ++step) {
    for (int task = 0; task < 12; ++task) r.calls({1, 2}, kMs);  // receive a task, send its result
    r.call(1, kMs);                                              // receive "step done"
  }
  EXPECT_EQ(r.d.best().period, 25);
  EXPECT_GT(r.d.best().seconds(), 0.95 * r.now);
}

// A pipelined wavefront: each iteration a lower sweep (receive from above,
// send below, block by block) and an upper one (the other way), every call
// many times an iteration, and a residual reduced every 25th iteration. The
// iteration is found from the breaks of the sweeps' loops, and it is the
// loop captured, not 25 iterations and the reduction.
TEST(PeriodDetector, AWavefrontOfTwoSweeps) {
  Rank r;
  for (int it = 1; it <= 150; ++it) {
    for (int block = 0; block < 8; ++block) r.calls({1, 2}, kMs);
    for (int block = 0; block < 8; ++block) r.calls({3, 4}, kMs);
    if (it % 25 == 0) r.call(9, kMs);
  }
  EXPECT_EQ(r.d.best().period, 32);
  EXPECT_GT(r.d.best().repetitions(), 130);
  EXPECT_GT(r.d.best().seconds(), 0.9 * r.now);
}

// An ADI step of pipelined line solves: a forward and a backward sweep in
// each of two directions, four inner loops of the same period (receive a
// batch's coefficients, send them on), none of whose calls comes once a
// step. The distances between the last two breaks are a half or a quarter
// step; the step is the distance to the last break by the same call.
TEST(PeriodDetector, FourInnerLoopsOfOnePeriodMakeAnOuterLoop) {
  Rank r;
  for (int step = 0; step < 12; ++step) {
    for (int batch = 0; batch < 32; ++batch) r.calls({1, 2}, kMs);
    for (int batch = 0; batch < 32; ++batch) r.calls({3, 4}, kMs);
    for (int batch = 0; batch < 16; ++batch) r.calls({5, 6}, kMs);
    for (int batch = 0; batch < 16; ++batch) r.calls({7, 8}, kMs);
  }
  EXPECT_EQ(r.d.best().period, 192);
  EXPECT_GT(r.d.best().seconds(), 0.9 * r.now);
  EXPECT_EQ(r.d.best().boundary.per_period, 16);
}

// A checkpoint written collectively every 25th step: the inner loop runs
// on for 24 repetitions between its breaks, as with a residual reduced now
// and then, but an iteration without the writes would leave out work every
// rank does: the 25 steps with their checkpoint are the loop. The same
// break by a call of no collective MPI-IO stays an occasional call.
TEST(PeriodDetector, ACollectiveCheckpointInTheBreaksIsTheOuterLoops) {
  for (const bool checkpoint : {false, true}) {
    Rank r;
    for (int step = 1; step <= 150; ++step) {
      r.calls({1, 1, 2, 2, 3}, kMs);  // halos both ways for each colour, the residual
      if (step % 25 == 0) {
        r.now += kMs;
        r.d.observe({.exact = 9}, 9, r.now, checkpoint);
      }
    }
    EXPECT_EQ(r.d.best().period, checkpoint ? 126 : 5) << checkpoint;
    EXPECT_GT(r.d.best().seconds(), 0.8 * r.now) << checkpoint;
  }
}

// Every call twice an iteration (a halo exchange whose sends and receives
// come in mirrored order): found from the call before last.
TEST(PeriodDetector, EveryCallTwiceAnIteration) {
  Rank r;
  for (int it = 0; it < 10; ++it) r.calls({1, 2, 2, 1}, kMs);
  ASSERT_NE(r.d.live(), nullptr);
  EXPECT_EQ(r.d.live()->period, 4);
  EXPECT_EQ(r.d.live()->boundary.per_period, 2);
}

// Signatures 10 + kind: a setup call of kind 1 that fits the pattern ahead
// of the loop, then iterations of kinds 2, 1, 1 (like nas_style_cg: an
// allgather and two allreduces): kind 2 ends each iteration, once a period,
// and every iteration is counted, the setup call not.
TEST(PeriodDetector, CountsTheIterationsOfTheLoop) {
  for (int iterations = 3; iterations <= 40; iterations += 37) {
    Rank r;
    r.call(1, kMs, 11);
    for (int it = 0; it < iterations; ++it) {
      for (int kind : {2, 1, 1}) r.call(kind, kMs, static_cast<std::uint64_t>(10 + kind));
    }
    ASSERT_EQ(r.d.best().period, 3);
    EXPECT_EQ(r.d.best().boundary.kind, 2);
    EXPECT_EQ(r.d.best().boundary.per_period, 1);
    EXPECT_EQ(r.d.best().boundary.seen, iterations) << iterations << " iterations";
  }
}

// A step of a count (a fixed size) and the particles it announces (a size
// that changes every step, seen by its class until it is seen as varying,
// from the 17th step on; varying_values.hpp): the loop is found from
// there, and the steps before it, whose particles were seen by their
// class, are counted as the loop's too: alike but for the size that
// varies. A setup call of the same function and peer before them, another
// call in its place, is not. The loop's time, which decides between loops,
// is from where its calls were the same.
TEST(PeriodDetector, StepsBeforeTheSizesWereSeenVaryingAreTheLoops) {
  constexpr std::uint64_t kCount = 0x5000'0000'0001ULL;
  constexpr std::uint64_t kParticles = 0x6000'0000'0002ULL;
  Rank r;
  auto call = [&r](int kind, std::uint64_t loose, std::uint64_t size, bool varies) {
    r.now += kMs;
    r.d.observe({.exact = loose ^ (size << 40), .loose = loose | (varies ? kVaries : 0)}, kind, r.now);
  };
  call(1, kCount, 12, false);  // setup: the count's function and peer, another size
  const int steps = 60, seen_varying_from = 17;
  for (int s = 0; s < steps; ++s) {
    call(1, kCount, 3, false);
    const bool varies = s >= seen_varying_from;
    call(2, kParticles, varies ? 127 : static_cast<std::uint64_t>(4 + s), varies);
  }
  ASSERT_EQ(r.d.best().period, 2);
  EXPECT_EQ(r.d.best().boundary.seen, steps);
  EXPECT_EQ(r.d.best().first_call, 1 + 2 * seen_varying_from);
}

// A molecular-dynamics loop: every step sends its halo to the neighbour
// and back (two sizes of one class), and every 10th step rebuilds its
// neighbour lists, with a call of its own, after which the halos have new
// sizes of the same class. Once the sizes are seen varying, a new size is
// seen so until it came four times, then by its class (varying_values.hpp):
// how many steps after a rebuild that takes depends on whether a size came
// before, so the 10 steps are seen differently from one rebuild to the next.
// A call seen as varying is the same as one seen by its class when it is of
// that class: the loop of 10 steps holds from its first rebuild to the end,
// and resumes as the same loop after a checkpoint once in the run, its
// content the same whichever way its calls were seen. Before, it broke off
// at every rebuild whose steps were seen otherwise than the last ones, and
// came back as another loop.
TEST(PeriodDetector, ACallSeenVaryingIsTheSameAsOneSeenByItsClass) {
  constexpr std::uint64_t kForward = 0x5000'0000'0001ULL, kReverse = 0x5000'0000'0002ULL;
  constexpr std::uint64_t kRebuild = 0x6000'0000'0003ULL, kCheckpoint = 0x7000'0000'0004ULL;
  constexpr std::uint64_t kHaloClass = 17, kVaryingSize = 127;
  Rank r;
  auto call = [&r](int kind, std::uint64_t loose, std::uint64_t size_class, bool varies) {
    r.now += kMs;
    r.d.observe({.exact = loose ^ ((varies ? kVaryingSize : size_class) << 40),
                 .loose = loose | (varies ? kVaries : 0),
                 .classed = loose ^ (size_class << 40),
                 .content = loose ^ (kVaryingSize << 40)},
                kind, r.now);
  };
  constexpr int kRebuilds = 40, kSteps = 10, kCheckpointAt = 12;
  for (int k = 0; k < kRebuilds; ++k) {
    call(3, kRebuild, 2, false);
    if (k == kCheckpointAt) call(4, kCheckpoint, 5, false);
    const int seen_varying_for = 1 + (k * 7) % 4;  // steps after the rebuild, 1 to 4
    for (int s = 0; s < kSteps; ++s) {
      call(1, kForward, kHaloClass, s < seen_varying_for);
      call(2, kReverse, kHaloClass, s < seen_varying_for);
    }
  }
  ASSERT_EQ(r.d.best().period, 1 + 2 * kSteps);
  EXPECT_EQ(r.d.best().breaks, 1);
  EXPECT_EQ(r.d.best().boundary.kind, 3);
  // Found from its first rebuild: every rebuild is counted.
  EXPECT_EQ(r.d.best().boundary.seen, kRebuilds);
  // Unbroken since the checkpoint (the rebuild it followed begins no whole
  // period of the resumed stretch).
  EXPECT_GE(r.d.unbroken(r.d.best().id), kRebuilds - kCheckpointAt - 1);
}

// A loop whose sizes come to be seen varying in the middle of the run
// (their function and peer brought a 17th new size) holds its calls
// otherwise from then on (call_signature.hpp, content), as the same calls
// by their classes: it resumes after its next break as the same loop, not
// as a new one that would have to take the run's time again.
TEST(PeriodDetector, ALoopResumesAsItselfWhenItsSizesComeToBeSeenVarying) {
  constexpr std::uint64_t kHalo = 0x5000'0000'0001ULL, kRebuild = 0x6000'0000'0003ULL;
  Rank r;
  auto call = [&r](int kind, std::uint64_t loose, bool sizes_vary) {
    r.now += kMs;
    const std::uint64_t exact = loose ^ (std::uint64_t{14} << 40);
    r.d.observe({.exact = exact, .classed = exact, .content = sizes_vary ? loose ^ (std::uint64_t{127} << 40) : exact},
                kind, r.now);
  };
  constexpr int kRebuilds = 20, kSeenVaryingFrom = 7;
  std::int64_t id = 0;
  for (int k = 0; k < kRebuilds; ++k) {
    call(3, kRebuild, false);
    for (int s = 0; s < 25; ++s) call(1, kHalo, k >= kSeenVaryingFrom);  // the rebuild is occasional
    if (k == 3) id = r.d.best().id;
  }
  ASSERT_NE(id, 0);
  EXPECT_EQ(r.d.best().id, id);
  EXPECT_EQ(r.d.best().period, 1);
  EXPECT_EQ(r.d.best().breaks, kRebuilds - 1);
}

// A call seen as varying is not the same as one of another class: the
// count sent before the particles it announces, under one tag, stays apart
// from them however their sizes are seen.
TEST(CallSignature, ACallSeenVaryingIsTheSameOnlyAsOneOfItsClass) {
  constexpr std::uint64_t kCall = 0x1234'0000'5678ULL;
  const auto seen = [](std::uint64_t size_class, bool varies) {
    return CallSignature{.exact = kCall ^ ((varies ? 127 : size_class) << 40),
                         .loose = kCall | (varies ? kVaries : 0),
                         .classed = kCall ^ (size_class << 40)};
  };
  // particles of class 9 seen as varying, against the count (class 3) and
  // against particles of class 9 seen by their class
  EXPECT_FALSE(same_call(seen(9, true), seen(3, false)));
  EXPECT_TRUE(same_call(seen(9, true), seen(9, false)));
  EXPECT_TRUE(same_call(seen(9, false), seen(9, true)));
  // two sizes seen as varying are the same call whatever their classes
  EXPECT_TRUE(same_call(seen(9, true), seen(11, true)));
  // nothing varies: the signatures alone tell
  EXPECT_FALSE(same_call(seen(9, false), seen(10, false)));
  EXPECT_TRUE(same_call(seen(9, false), seen(9, false)));
}

TEST(CallSignature, AlikeButVaryingWhenOneVariesAndTheRestIsTheSame) {
  constexpr std::uint64_t kCall = 0x1234'0000'5678ULL;
  EXPECT_TRUE(alike_but_varying(kCall, kCall | kVaries));
  EXPECT_TRUE(alike_but_varying(kCall | kVaries, kCall));
  EXPECT_TRUE(alike_but_varying(kCall | kVaries, kCall | kVaries));
  EXPECT_FALSE(alike_but_varying(kCall, kCall));  // nothing varies: the exact signatures tell
  EXPECT_FALSE(alike_but_varying(kCall, (kCall + 1) | kVaries));
}

// No kind appears once a period: every other call of the least frequent one
// ends an iteration; calls before the pattern are not counted.
TEST(PeriodDetector, ABoundaryKindTwiceAPeriod) {
  Rank r;
  for (int i = 0; i < 5; ++i) r.call(7, kMs, static_cast<std::uint64_t>(100 + i));  // setup, kind 7
  for (int it = 0; it < 4; ++it) r.calls({7, 7, 8, 8, 8}, kMs);
  r.call(7, kMs);  // the next iteration has begun
  ASSERT_EQ(r.d.best().period, 5);
  EXPECT_EQ(r.d.best().boundary.kind, 7);
  EXPECT_EQ(r.d.best().boundary.per_period, 2);
  EXPECT_EQ(r.d.best().boundary.seen, 4 * 2 + 1);
}

// After the loop, calls that fit no loop leave the best one as it was.
TEST(PeriodDetector, TheBestLoopOutlivesItsEnd) {
  Rank r;
  for (int it = 0; it < 20; ++it) r.calls({1, 2, 3}, kMs);
  const PeriodDetector::Loop loop = r.d.best();
  for (int i = 0; i < 50; ++i) r.call(1, kUs, static_cast<std::uint64_t>(1000 + i));
  EXPECT_EQ(r.d.live(), nullptr);
  EXPECT_EQ(r.d.best().id, loop.id);
  EXPECT_EQ(r.d.best().repetitions(), 20);
}

// A step of two calls, a residual reduced every a-th step and a value
// broadcast every b-th: the loop is the steps of both periods, lcm(a, b),
// whatever a and b. No call alone recurs at that distance (the residual
// follows 2 or 3 steps after the last broadcast); the pair of the two does,
// proposed when the step's loop breaks off at them. Before, coprime periods
// gave a single step (5 and 3: 6 repetitions, and no profile in the run).
TEST(PeriodDetector, TwoEventsOfTheirOwnPeriodsMakeTheLoopOfBoth) {
  struct Case {
    int a, b, steps_of_both;
  };
  for (const Case& c : {Case{5, 3, 15}, Case{7, 5, 35}, Case{10, 7, 70}, Case{10, 4, 20}, Case{25, 10, 50}}) {
    Rank r;
    constexpr int kSteps = 600;
    for (int s = 0; s < kSteps; ++s) {
      r.calls({1, 2}, kMs);
      if (s % c.a == c.a - 1) r.call(3, kMs);
      if (s % c.b == c.b - 1) r.call(4, kMs);
    }
    const int calls = 2 * c.steps_of_both + c.steps_of_both / c.a + c.steps_of_both / c.b;
    ASSERT_NE(r.d.best().id, 0) << c.a << " " << c.b;
    EXPECT_EQ(r.d.best().period, calls) << c.a << " " << c.b;
    EXPECT_EQ(r.d.best().repetitions(), kSteps / c.steps_of_both) << c.a << " " << c.b;
  }
}

// An implicit solver's time step: 12 inner iterations of four calls between
// the step's own calls. The pairs proposed after the inner loop's breaks
// never push out the step's period while it is being confirmed.
TEST(PeriodDetector, PairsAfterBreaksLeaveTheOuterStepFound) {
  Rank r;
  for (int s = 0; s < 30; ++s) {
    r.calls({1, 2, 3}, kMs);
    for (int it = 0; it < 12; ++it) r.calls({1, 2, 3, 3}, kMs);
    r.calls({3, 3}, kMs);
  }
  ASSERT_NE(r.d.best().id, 0);
  EXPECT_EQ(r.d.best().period, 3 + 12 * 4 + 2);
  EXPECT_EQ(r.d.best().repetitions(), 30);
}

}  // namespace
}  // namespace mheta::interpose
