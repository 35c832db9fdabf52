#pragma once
// What detection sees of a call's size. A signature holds its size class
// (bytes rounded to a power of two), so that a multigrid cycle's levels are
// different calls. Some programs send sizes that change every step: the
// particles leaving a subdomain, preceded by their count, or a front that
// grows. Their size classes never repeat in order, and neither would the
// loop.
//
// Per call (its signature but the size), detection remembers the last
// kSizes sizes it saw. A program whose sizes are fixed brings at most that
// many to one call, however many iterations it runs; a call that brought
// more (kNewSizesToVary) has sizes that vary. From then on, it sees a size
// by its class only when the size is one of the call's usual ones (the
// count before the particles, every step), and every other size as "a size
// that varies" (the particles): the loop repeats. No MPI.
#include <array>
#include <cstdint>

namespace mheta::interpose {

class SizeClasses {
 public:
  // What a varying size is seen as: no size class is.
  static constexpr std::uint64_t kVarying = 127;
  // The sizes a call remembers, the least recently come one forgotten for a
  // new one. A call that takes turns between more sizes than this, in order,
  // finds every one new and is seen with sizes that vary.
  static constexpr int kSizes = 16;
  static constexpr int kNewSizesToVary = kSizes + 1;
  // Once a call's sizes vary, a size is a usual one when it came at least
  // kUsualComings times, and in at least one of every kUsualShare of the
  // call's calls since it was remembered. A particle count that came again,
  // in the same step (to two faces) or in a step like an earlier one, is not.
  static constexpr int kUsualComings = 4;
  static constexpr std::uint32_t kUsualShare = 4;

  // The size class a call's signature holds for `bytes`; `call` is its
  // signature without the size.
  std::uint64_t seen(std::uint64_t call, std::int64_t bytes);

  // The class of `bytes`: the bits needed to write it.
  static std::uint64_t size_class(std::int64_t bytes);

 private:
  struct Size {
    std::int64_t bytes = -1;  // -1: an empty entry
    std::uint32_t first_call = 0;  // when it was remembered (the call's count)
    std::uint32_t last_call = 0;
    std::uint32_t comings = 0;  // since it was remembered
  };
  // Direct-mapped: a call whose slot another took starts that slot again. A
  // program makes a few calls to a few peers; the size bounds the memory.
  static constexpr std::size_t kSlots = 512;  // a power of two
  struct Slot {
    std::uint64_t call = ~std::uint64_t{0};
    std::array<Size, kSizes> sizes{};
    std::uint32_t calls = 0;
    int new_sizes = 0;
  };
  // The slot's entry for `bytes`, which becomes its most recent one; a new
  // size takes an empty entry or the least recent one's.
  static Size& remember(Slot& slot, std::int64_t bytes);
  static bool usual(const Slot& slot, const Size& size);

  std::array<Slot, kSlots> slots_{};
};

}  // namespace mheta::interpose
