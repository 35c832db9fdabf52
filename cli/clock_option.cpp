#include "cli/clock_option.hpp"

namespace mheta::cli {

void add_clock_option(CLI::App& command, std::string& clock) {
  // Checked by the command rather than by CLI11, so that a bad value is one
  // line naming the choices, like the other settings the commands check.
  command.add_option("--clock", clock,
                     "Clock of an emulated run: virtual (default when emulating: each rank keeps a virtual clock) "
                     "or wall");
}

bool is_clock_mode(const std::string& clock) { return clock.empty() || clock == "virtual" || clock == "wall"; }

std::string clock_usage(const std::string& clock) { return "--clock " + clock + ": expected virtual or wall"; }

}  // namespace mheta::cli
