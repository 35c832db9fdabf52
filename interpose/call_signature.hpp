#pragma once
// What detection knows a call by (handlers.hpp, signature()): `exact`, its
// function, two numbers (peer and tag, a file and the step between its
// offsets) and its size as seen (a class, or "a size that varies";
// varying_values.hpp); and `loose`, the same call without the values that
// can vary (its size, a file's offset step), with kVaries set when one of
// them was seen as varying. A value is seen as varying only from its 17th
// new one on, and the loop found from there; the calls before, alike but
// for those values, are the loop's too (period_detector.cpp, extend_back).
#include <cstdint>

namespace mheta::interpose {

struct CallSignature {
  std::uint64_t exact = 0;
  std::uint64_t loose = 0;
};

inline constexpr std::uint64_t kVaries = std::uint64_t{1} << 63;

// Whether two calls are the same but for values that vary in one of them:
// their loose signatures alike, and one of them flagged.
inline bool alike_but_varying(std::uint64_t loose_a, std::uint64_t loose_b) {
  return ((loose_a | loose_b) & kVaries) != 0 && ((loose_a ^ loose_b) & ~kVaries) == 0;
}

}  // namespace mheta::interpose
