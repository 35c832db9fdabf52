#pragma once
// The inputs of the apps are functions of global indices, so every rank
// generates its own rows and the serial reference generates the same ones.
#include <cstdint>

namespace mheta::apps {

// SplitMix64 finalizer: well-mixed 64 bits from a key.
constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Uniform in [0, 1) from two indices.
constexpr double unit_value(std::uint64_t a, std::uint64_t b) {
  return static_cast<double>(mix64(a * 0x100000001b3ull ^ mix64(b)) >> 11) * 0x1.0p-53;
}

}  // namespace mheta::apps
