#pragma once
// What an app prints on stdout for `mheta validate` (docs/apps.md, "What
// they print"): one {"mheta":"iteration","index":k,"seconds":s} line per
// iteration and a {"mheta":"result","check":"PASS"|"FAIL",...} line.
#include <string>
#include <string_view>
#include <vector>

namespace mheta::cli {

struct AppIterationTimes {
  std::vector<double> seconds;  // by iteration index, from 0
  std::string check;            // "PASS", "FAIL", or empty when not printed
};

// Reads the JSON lines of `text` (lines not starting with {" are not JSON
// and are skipped). Throws FormatError naming `source` and the line when an
// iteration line is malformed, an index repeats or one is missing.
AppIterationTimes parse_app_output(std::string_view text, std::string_view source);

// The mean of the steady-state iterations: every iteration but the first
// (index 0), which generates or opens the data and, under capture, runs out
// of core. With one iteration only, that one. Throws FormatError naming
// `source` when there is none.
double steady_state_seconds(const AppIterationTimes& times, std::string_view source);

}  // namespace mheta::cli
