#include "tests/fuzz/mutator.hpp"

#include <array>
#include <cctype>
#include <string_view>

namespace mheta::fuzz {

namespace {

constexpr std::array<std::string_view, 22> kNumbers = {
    "0",        "-1",     "1e309",   "-1e309",  "1e308",      "1e19",    "1e-320", "4.9e-324",
    "1e12",     "1e13",   "2147483648", "9223372036854775807", "9223372036854775808",
    "99999999999999999999", "18446744073709551616", "-0",   "0.5",     "1e6",    "1000001",
    "NaN",      "Infinity", "1.7976931348623157e308",
};

constexpr std::array<std::string_view, 8> kFragments = {"[", "{", "\"", ",", ":", "}", "]", "#"};

}  // namespace

std::string Mutator::interesting_number() {
  switch (below(4)) {
    case 0:
      return std::string(std::string(1, static_cast<char>('1' + below(9))) + std::string(below(5000) + 1, '9'));
    case 1:
      return "0." + std::string(below(2000) + 1, '0') + "1";
    default:
      return std::string(kNumbers[below(kNumbers.size())]);
  }
}

void Mutator::replace_number(std::string& s, const std::string& with) {
  // A run of digits starting at a random place (or the next one after it).
  std::size_t start = below(s.size());
  while (start < s.size() && !std::isdigit(static_cast<unsigned char>(s[start]))) ++start;
  if (start >= s.size()) return;
  while (start > 0 && (std::isdigit(static_cast<unsigned char>(s[start - 1])) || s[start - 1] == '.' ||
                       s[start - 1] == '-')) {
    --start;
  }
  std::size_t end = start;
  while (end < s.size() && (std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == '.' || s[end] == 'e' ||
                            s[end] == 'E' || s[end] == '-' || s[end] == '+')) {
    ++end;
  }
  s.replace(start, end - start, with);
}

void Mutator::mutate_once(std::string& s) {
  switch (below(10)) {
    case 0:  // flip a bit
      if (!s.empty()) s[below(s.size())] ^= static_cast<char>(1u << below(8));
      break;
    case 1: {  // delete a range
      const std::size_t at = below(s.size());
      s.erase(at, below(std::min<std::size_t>(s.size() - at, 64)) + 1);
      break;
    }
    case 2: {  // copy a range elsewhere
      if (s.empty()) break;
      const std::size_t from = below(s.size());
      const std::string piece = s.substr(from, below(256) + 1);
      s.insert(below(s.size() + 1), piece);
      break;
    }
    case 3:
    case 4:
    case 5:  // an extreme number in place of one
      replace_number(s, interesting_number());
      break;
    case 6: {  // deep nesting
      constexpr std::array<std::size_t, 4> depths = {99, 101, 5000, 100000};
      const std::size_t depth = depths[below(depths.size())];
      const bool array = below(2) == 0;
      std::string nest;
      for (std::size_t i = 0; i < depth; ++i) nest += array ? "[" : "{\"k\":";
      nest += "1";
      for (std::size_t i = 0; i < depth; ++i) nest += array ? "]" : "}";
      replace_number(s, nest);
      break;
    }
    case 7:  // a structural character
      s.insert(below(s.size() + 1), kFragments[below(kFragments.size())]);
      break;
    case 8:  // truncate
      s.resize(below(s.size() + 1));
      break;
    default:  // random bytes
      for (std::size_t n = below(8) + 1; n > 0; --n) s.insert(below(s.size() + 1), 1, static_cast<char>(below(256)));
      break;
  }
}

std::string Mutator::mutate(const std::string& seed) {
  std::string s = seed;
  for (std::size_t n = below(4) + 1; n > 0; --n) mutate_once(s);
  return s;
}

}  // namespace mheta::fuzz
