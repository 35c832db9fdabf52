#pragma once
// Mutations of a seed input for the fuzz driver: byte-level changes plus the
// structural ones hostile inputs are made of (deep nesting, numbers past a
// double, very long numbers, extreme values), so a bounded run reaches them
// without a coverage-guided engine.
#include <random>
#include <string>

namespace mheta::fuzz {

class Mutator {
 public:
  explicit Mutator(std::uint64_t seed) : random_(seed) {}

  // A copy of `seed` with one to four mutations applied.
  std::string mutate(const std::string& seed);

 private:
  std::size_t below(std::size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(random_); }
  void mutate_once(std::string& s);
  void replace_number(std::string& s, const std::string& with);
  std::string interesting_number();

  std::mt19937_64 random_;
};

}  // namespace mheta::fuzz
