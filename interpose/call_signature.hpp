#pragma once
// What detection knows a call by (handlers.hpp, signature()):
// - `exact`: its function, two numbers (peer and tag, a file and the step
//   between its offsets) and its size as seen (a class, or "a size that
//   varies"; varying_values.hpp);
// - `classed`: the same call as it would be seen were none of its values
//   varying (its size's class, the step itself);
// - `loose`: the same call without the values that can vary (its size, a
//   file's offset step), with kVaries set when one of them was seen as
//   varying. A value is seen as varying only from its 17th new one on, and
//   the loop found from there; the calls before, alike but for those
//   values, are the loop's too (period_detector.cpp, extend_back);
// - `content`: the call as a loop's content holds it (its period's calls
//   summed, whatever call it starts at): "a size that varies" for every
//   call of a function and peer (or file) some of whose values are seen as
//   varying, its usual ones too.
//
// Once a function and peer's sizes vary, a size it has not brought often
// is seen as varying and a usual one by its class, so one call of a loop is
// seen either way from one iteration to the next: a molecular-dynamics step
// whose halo sizes change at every rebuild of its neighbour lists, and stay
// for the twenty steps between, sends each new size as "varying" until it
// came four times, then by its class. A call seen as varying is therefore
// the same call as one seen by its class when it is of that class
// (same_call()), and a loop's content the same whichever way its calls
// were seen.
#include <cstdint>

namespace mheta::interpose {

struct CallSignature {
  std::uint64_t exact = 0;
  std::uint64_t loose = 0;
  std::uint64_t classed = 0;
  std::uint64_t content = 0;
};

inline constexpr std::uint64_t kVaries = std::uint64_t{1} << 63;

// Whether two calls are the same but for values that vary in one of them:
// their loose signatures alike, and one of them flagged.
inline bool alike_but_varying(std::uint64_t loose_a, std::uint64_t loose_b) {
  return ((loose_a | loose_b) & kVaries) != 0 && ((loose_a ^ loose_b) & ~kVaries) == 0;
}

// Whether two calls are the same to detection: their signatures alike, or
// one of them seen as varying and the two alike by their classes.
inline bool same_call(const CallSignature& a, const CallSignature& b) {
  return a.exact == b.exact || (((a.loose | b.loose) & kVaries) != 0 && a.classed == b.classed);
}

}  // namespace mheta::interpose
