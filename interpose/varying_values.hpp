#pragma once
// Values of a call that change every step, for detection: a message's size
// (the particles leaving a subdomain, sent after their count; a front that
// grows) or the step between a file's offsets (records of those sizes
// appended one after another). A signature that held them would never
// repeat, and neither would the loop.
//
// Per call (what the caller asks about: a function and peer for sizes,
// whatever the tag; a function and file for offsets), detection remembers
// the last kValues values it saw. A program whose values are fixed brings at most
// that many to one call, however many iterations it runs; a call that
// brought more (kNewValuesToVary) has values that vary. From then on, a
// value is seen as itself only when it is one of the call's usual ones
// (the count before the particles, every step), and every other one as "a
// value that varies" (the particles): the loop repeats. Varying values that
// would all be seen alike anyway (sizes that drift within one power of two)
// are seen so until one is not. No MPI.
#include <array>
#include <cstdint>

namespace mheta::interpose {

class VaryingValues {
 public:
  // The values a call remembers, the least recently come one forgotten for
  // a new one. A call that takes turns between more values than this, in
  // order, finds every one new, and is seen with values that vary once two
  // of them would be seen differently.
  static constexpr int kValues = 16;
  static constexpr int kNewValuesToVary = kValues + 1;
  // Once a call's values vary, a value is a usual one when it came at least
  // kUsualComings times, and in at least one of every kUsualShare of the
  // call's calls since it was remembered. A particle count that came again,
  // in the same step (to two faces) or in a step like an earlier one, is not.
  static constexpr int kUsualComings = 4;
  static constexpr std::uint32_t kUsualShare = 4;

  // Whether detection sees `value` of `call` as a value that varies, not as what it would see it as
  // otherwise, `seen_as` (a size's power of two; an offset's step itself).
  bool varies(std::uint64_t call, std::int64_t value, std::int64_t seen_as) { return see(call, value, seen_as).varies; }
  struct Seen {
    bool varies = false;  // the value is seen as varying
    // Some of the call's values are (from the first one on): its usual
    // values are still seen as themselves, and a new one as varying until
    // it came often enough to be a usual one.
    bool call_varies = false;
  };
  Seen see(std::uint64_t call, std::int64_t value, std::int64_t seen_as);

 private:
  struct Value {
    std::int64_t value = 0;
    bool empty = true;
    std::uint32_t first_call = 0;  // when it was remembered (the call's count)
    std::uint32_t last_call = 0;
    std::uint32_t comings = 0;  // since it was remembered
  };
  // Direct-mapped: a call whose slot another took starts that slot again. A
  // program makes a few calls to a few peers; the size bounds the memory.
  static constexpr std::size_t kSlots = 512;  // a power of two
  struct Slot {
    std::uint64_t call = ~std::uint64_t{0};
    std::array<Value, kValues> values{};
    std::uint32_t calls = 0;
    int new_values = 0;
    // How the first varying value would have been seen, and whether another
    // would have been seen otherwise.
    std::int64_t seen_as = 0;
    bool seen_as_known = false;
    bool seen_apart = false;
  };
  // The slot's entry for `value`, which becomes its most recent one; a new
  // value takes an empty entry or the least recent one's.
  static Value& remember(Slot& slot, std::int64_t value);
  static bool usual(const Slot& slot, const Value& value);
  static std::size_t slot_of(std::uint64_t call);

  std::array<Slot, kSlots> slots_{};
};

}  // namespace mheta::interpose
