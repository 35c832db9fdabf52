#pragma once
// A CLI11 check for counts (ranks, rows, iterations): the text itself must be
// a whole number in [minimum, maximum]. CLI11's own conversion saturates a
// number past 64 bits at 2^63 - 1, and its PositiveNumber check names a
// 309-digit upper bound; this check refuses such values with the range.
#include <CLI/CLI.hpp>
#include <cstdint>

namespace mheta::cli {

CLI::Validator whole_number(std::int64_t minimum, std::int64_t maximum);

inline constexpr std::int64_t kMaxRanks = INT32_MAX;

}  // namespace mheta::cli
