#pragma once
// --clock virtual|wall, of every command that runs programs under emulation
// (run, validate, microbench): which clock the interposer keeps, exported
// to it as MHETA_CLOCK (docs/emulation.md, "Virtual time").
#include <CLI/CLI.hpp>
#include <string>

namespace mheta::cli {

void add_clock_option(CLI::App& command, std::string& clock);

// Empty (the interposer's default: virtual when emulating), "virtual" or "wall".
bool is_clock_mode(const std::string& clock);

// The one-line message of a bad --clock.
std::string clock_usage(const std::string& clock);

}  // namespace mheta::cli
