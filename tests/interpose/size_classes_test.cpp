#include "interpose/size_classes.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace mheta::interpose {
namespace {

constexpr std::uint64_t kCall = 0x1234;  // a call's signature without its size
constexpr std::uint64_t kVarying = SizeClasses::kVarying;

// A particle count that changes every step, over a broad range (bytes of
// 1000-2999 doubles), the same in every run of the test.
std::int64_t particle_bytes(int step) { return 8 * (1000 + static_cast<std::int64_t>((step * 2654435761U) % 2000U)); }

TEST(SizeClasses, TheClassIsTheBitsOfTheSize) {
  EXPECT_EQ(SizeClasses::size_class(0), 0U);
  EXPECT_EQ(SizeClasses::size_class(4), 3U);
  EXPECT_EQ(SizeClasses::size_class(8191), 13U);
  EXPECT_EQ(SizeClasses::size_class(8192), 14U);
  EXPECT_EQ(SizeClasses::size_class(-5), 0U);
}

// A multigrid cycle's halos down and up its levels to one peer: as many
// distinct sizes as a call remembers, in every iteration. They never vary.
TEST(SizeClasses, SizesThatTakeTurnsKeepTheirClasses) {
  SizeClasses sizes;
  std::vector<std::int64_t> cycle;
  for (int level = 0; level < SizeClasses::kSizes; ++level) cycle.push_back(std::int64_t{8} << level);
  for (int level = SizeClasses::kSizes - 1; level >= 0; --level) cycle.push_back(std::int64_t{8} << level);
  for (int iteration = 0; iteration < 50; ++iteration) {
    for (const std::int64_t bytes : cycle) {
      ASSERT_EQ(sizes.seen(kCall, bytes), SizeClasses::size_class(bytes)) << iteration << " " << bytes;
    }
  }
}

// The count of the particles leaving, then the particles: their class
// until the call brought kNewSizesToVary sizes, then every step alike, the
// count by its class and the particles as a size that varies.
TEST(SizeClasses, ParticlesAfterTheirCountAreSeenAsVarying) {
  SizeClasses sizes;
  std::vector<std::vector<std::uint64_t>> seen;
  for (int step = 0; step < 60; ++step) seen.push_back({sizes.seen(kCall, 4), sizes.seen(kCall, particle_bytes(step))});
  for (int step = 0; step < SizeClasses::kNewSizesToVary - 2; ++step) {
    EXPECT_EQ(seen[step][1], SizeClasses::size_class(particle_bytes(step))) << step;
  }
  const std::vector<std::uint64_t> varying{3, kVarying};
  for (int step = SizeClasses::kNewSizesToVary; step < 60; ++step) EXPECT_EQ(seen[step], varying) << step;
}

// Two faces to one peer get the same particle count: it comes twice in a
// step, and still is not taken for a size that comes back step after step.
TEST(SizeClasses, AParticleCountSentTwiceAStepStillVaries) {
  SizeClasses sizes;
  std::vector<std::vector<std::uint64_t>> seen;
  for (int step = 0; step < 80; ++step) {
    const std::int64_t particles = particle_bytes(step);
    seen.push_back({sizes.seen(kCall, 4), sizes.seen(kCall, 4), sizes.seen(kCall, particles),
                    sizes.seen(kCall, particles), sizes.seen(kCall, particles)});
  }
  const std::vector<std::uint64_t> varying{3, 3, kVarying, kVarying, kVarying};
  for (int step = SizeClasses::kNewSizesToVary; step < 80; ++step) EXPECT_EQ(seen[step], varying) << step;
}

// A particle count that comes back now and then (the same few particles in
// every quiet step of an oscillation) is not a usual size: still varying.
TEST(SizeClasses, ACountThatComesBackNowAndThenStillVaries) {
  SizeClasses sizes;
  for (int step = 0; step < 200; ++step) {
    const std::int64_t bytes = step % 9 == 0 ? 192 : particle_bytes(step);
    const std::uint64_t seen = sizes.seen(kCall, bytes);
    if (step >= 2 * SizeClasses::kNewSizesToVary) {
      EXPECT_EQ(seen, kVarying) << step;
    }
  }
}

// A front that grows by a row every step: no size ever comes again.
TEST(SizeClasses, AGrowingMessageVaries) {
  SizeClasses sizes;
  for (int step = 0; step < 100; ++step) {
    const std::int64_t bytes = 800 + 8 * step;
    const std::uint64_t seen = sizes.seen(kCall, bytes);
    if (step < SizeClasses::kNewSizesToVary - 1) {
      EXPECT_EQ(seen, SizeClasses::size_class(bytes)) << step;
    } else if (step >= SizeClasses::kNewSizesToVary) {
      EXPECT_EQ(seen, kVarying) << step;
    }
  }
}

// More sizes in turn than a call remembers: each is new every time it
// comes, and once they vary, every iteration is seen alike.
TEST(SizeClasses, MoreSizesInTurnThanRememberedAreSeenAlike) {
  SizeClasses sizes;
  std::vector<std::vector<std::uint64_t>> seen(10);
  for (auto& iteration : seen) {
    for (int k = 0; k < SizeClasses::kSizes + 4; ++k) iteration.push_back(sizes.seen(kCall, 100 + 16 * k));
  }
  for (std::size_t iteration = 2; iteration < seen.size(); ++iteration) EXPECT_EQ(seen[iteration], seen[2]);
  EXPECT_EQ(seen[2][0], kVarying);
}

// Each call keeps its own sizes: a call whose sizes vary leaves another's
// classes alone, whichever bits of their signatures differ (a receive and a
// send to one peer under one tag differ in the function's, the top ones).
TEST(SizeClasses, CallsAreApart) {
  for (const std::uint64_t other : {kCall + 1, kCall ^ (std::uint64_t{1} << 48), kCall ^ (std::uint64_t{3} << 52)}) {
    SizeClasses sizes;
    for (int step = 0; step < 60; ++step) {
      sizes.seen(kCall, particle_bytes(step));
      ASSERT_EQ(sizes.seen(other, 8 * (1100 + step % 2)), 14U) << step;
    }
    EXPECT_EQ(sizes.seen(kCall, particle_bytes(61)), kVarying);
  }
}

}  // namespace
}  // namespace mheta::interpose
