#include "interpose/varying_values.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <vector>

namespace mheta::interpose {
namespace {

constexpr std::uint64_t kCall = 0x1234;  // a call's signature without its value
constexpr int kToVary = VaryingValues::kNewValuesToVary;

// A particle count that changes every step, over a broad range (bytes of
// 1000-2999 doubles), the same in every run of the test.
std::int64_t particle_bytes(int step) { return 8 * (1000 + static_cast<std::int64_t>((step * 2654435761U) % 2000U)); }

// Whether a message of `bytes` is seen with a size that varies, not by its
// power of two, as detection asks (handlers.hpp, signature()).
bool size_varies(VaryingValues& values, std::uint64_t call, std::int64_t bytes) {
  return values.varies(call, bytes, std::bit_width(static_cast<std::uint64_t>(bytes)));
}

// A multigrid cycle's halos down and up its levels to one peer: as many
// distinct sizes as a call remembers, in every iteration. They never vary.
TEST(VaryingValues, ValuesThatTakeTurnsNeverVary) {
  VaryingValues values;
  std::vector<std::int64_t> cycle;
  for (int level = 0; level < VaryingValues::kValues; ++level) cycle.push_back(std::int64_t{8} << level);
  for (int level = VaryingValues::kValues - 1; level >= 0; --level) cycle.push_back(std::int64_t{8} << level);
  for (int iteration = 0; iteration < 50; ++iteration) {
    for (const std::int64_t bytes : cycle) ASSERT_FALSE(size_varies(values, kCall, bytes)) << iteration << " " << bytes;
  }
}

// The count of the particles leaving, then the particles: themselves until
// the call brought kNewValuesToVary values, then every step alike, the
// count as itself and the particles as a value that varies.
TEST(VaryingValues, ParticlesAfterTheirCountVary) {
  VaryingValues values;
  std::vector<std::vector<bool>> seen;
  for (int step = 0; step < 60; ++step) {
    seen.push_back({size_varies(values, kCall, 4), size_varies(values, kCall, particle_bytes(step))});
  }
  for (int step = 0; step < kToVary - 2; ++step) EXPECT_EQ(seen[step], (std::vector<bool>{false, false})) << step;
  for (int step = kToVary + 2; step < 60; ++step) EXPECT_EQ(seen[step], (std::vector<bool>{false, true})) << step;
}

// Whether a call's values vary, for a loop's content (call_signature.hpp):
// not while every value is seen as itself, from its first value seen as
// varying on, its usual ones too (the count), and for that call only.
TEST(VaryingValues, ACallsValuesVaryFromTheFirstSeenVarying) {
  VaryingValues values;
  constexpr std::uint64_t kOther = 0x5678;
  const auto see = [&values](std::uint64_t call, std::int64_t bytes) {
    return values.see(call, bytes, std::bit_width(static_cast<std::uint64_t>(bytes)));
  };
  bool seen_varying = false;
  for (int step = 0; step < 60; ++step) {
    EXPECT_FALSE(see(kOther, 4).call_varies) << step;
    const VaryingValues::Seen count = see(kCall, 4);
    EXPECT_FALSE(count.varies) << step;
    EXPECT_EQ(count.call_varies, seen_varying) << step;
    const VaryingValues::Seen particles = see(kCall, particle_bytes(step));
    seen_varying = seen_varying || particles.varies;
    EXPECT_EQ(particles.call_varies, seen_varying) << step;
  }
  EXPECT_TRUE(seen_varying);
}

// Two faces to one peer get the same particle count: it comes twice or
// three times in a step, and still is not taken for a usual value.
TEST(VaryingValues, AParticleCountSentTwiceAStepStillVaries) {
  VaryingValues values;
  std::vector<std::vector<bool>> seen;
  for (int step = 0; step < 80; ++step) {
    const std::int64_t particles = particle_bytes(step);
    seen.push_back({size_varies(values, kCall, 4), size_varies(values, kCall, 4), size_varies(values, kCall, particles),
                    size_varies(values, kCall, particles), size_varies(values, kCall, particles)});
  }
  const std::vector<bool> varying{false, false, true, true, true};
  for (int step = kToVary + 2; step < 80; ++step) EXPECT_EQ(seen[step], varying) << step;
}

// A particle count that comes back now and then (the same few particles in
// every quiet step of an oscillation) is not a usual value: it still varies.
TEST(VaryingValues, ACountThatComesBackNowAndThenStillVaries) {
  VaryingValues values;
  for (int step = 0; step < 200; ++step) {
    const bool varies = size_varies(values, kCall, step % 9 == 0 ? 192 : particle_bytes(step));
    if (step >= 2 * kToVary) {
      EXPECT_TRUE(varies) << step;
    }
  }
}

// A front that grows by a row every step: no size ever comes again. Its
// sizes vary from the 17th, but are seen by their power of two until one
// is of another (1024 bytes and more, from step 28 on).
TEST(VaryingValues, AGrowingMessageVariesOnceItsPowerOfTwoChanges) {
  VaryingValues values;
  for (int step = 0; step < 100; ++step) {
    const bool varies = size_varies(values, kCall, 800 + 8 * step);
    EXPECT_EQ(varies, step >= 28) << step;
  }
}

// A halo whose length drifts within one power of two (23 lengths in turn,
// 8000 to 8176 bytes) after a count: its sizes vary, and are still seen as
// their power of two, so that its loop goes on as it was.
TEST(VaryingValues, SizesThatDriftWithinTheirPowerOfTwoAreSeenByIt) {
  VaryingValues values;
  for (int step = 0; step < 200; ++step) {
    ASSERT_FALSE(size_varies(values, kCall, 4)) << step;
    ASSERT_FALSE(size_varies(values, kCall, 8000 + 8 * (step % 23))) << step;
  }
}

// More values in turn than a call remembers: each is new every time it
// comes, and once they vary, every iteration is seen alike.
TEST(VaryingValues, MoreValuesInTurnThanRememberedAllVary) {
  VaryingValues values;
  for (int iteration = 0; iteration < 10; ++iteration) {
    for (int k = 0; k < VaryingValues::kValues + 4; ++k) {
      const bool varies = size_varies(values, kCall, 100 + 16 * k);
      if (iteration >= 1) {
        EXPECT_TRUE(varies) << iteration << " " << k;
      }
    }
  }
}

// Each call keeps its own values: a call whose values vary leaves another's
// alone, whichever bits of their signatures differ (a receive and a send to
// one peer under one tag differ in the function's, the top ones).
TEST(VaryingValues, CallsAreApart) {
  for (const std::uint64_t other : {kCall + 1, kCall ^ (std::uint64_t{1} << 48), kCall ^ (std::uint64_t{3} << 52)}) {
    VaryingValues values;
    for (int step = 0; step < 60; ++step) {
      size_varies(values, kCall, particle_bytes(step));
      ASSERT_FALSE(size_varies(values, other, 8 * (1100 + step % 2))) << step;
    }
    EXPECT_TRUE(size_varies(values, kCall, particle_bytes(61)));
  }
}

// Offsets of records appended one after another: the step from the last
// offset is the last record's size. Records of fixed size step alike;
// records whose sizes change every step make steps that vary.
TEST(VaryingValues, StepsOfAppendedRecordsVaryWithTheirSizes) {
  VaryingValues fixed;
  VaryingValues changing;
  for (int step = 0; step < 60; ++step) {
    EXPECT_FALSE(fixed.varies(kCall, 4096, 4096)) << step;
    const bool varies = changing.varies(kCall, particle_bytes(step), particle_bytes(step));
    if (step >= kToVary) {
      EXPECT_TRUE(varies) << step;
    }
  }
}

}  // namespace
}  // namespace mheta::interpose
