#pragma once
// What an app prints on stdout for `mheta validate` (docs/apps.md, "What
// they print"): one {"mheta":"iteration","index":k,"seconds":s} line per
// iteration, optionally one {"mheta":"rank","rank":r,"iterations":[{"seconds":
// s},...]} line per rank, and a {"mheta":"result","check":"PASS"|"FAIL",...}
// line.
#include <string>
#include <string_view>
#include <vector>

namespace mheta::cli {

struct AppIterationTimes {
  std::vector<double> seconds;  // by iteration index, from 0 (the slowest rank's)
  std::vector<std::vector<double>> rank_seconds;  // [rank][iteration], when rank lines were printed
  std::string check;            // "PASS", "FAIL", or empty when not printed
};

// Reads the JSON lines of `text` (lines not starting with {" are not JSON
// and are skipped). Throws FormatError naming `source` and the line when an
// iteration line is malformed, an index repeats or one is missing.
AppIterationTimes parse_app_output(std::string_view text, std::string_view source);

// Seconds per steady-state iteration: every iteration but the first (index
// 0), which generates or opens the data and, under capture, runs out of
// core; with one iteration only, that one. With rank lines, the largest
// over the ranks of each rank's median: the ranks of an iterative program
// wait for each other, so each rank's typical iteration is the run's, and
// the median leaves out what the model does not describe: the iterations
// that first touch a file or a buffer (jacobi's second grid is first
// written in iteration 1) and the moments another process takes the core.
// (The mean of each iteration's slowest rank, used before, added up every
// rank's jitter.) Without rank lines, the median of the iteration lines.
// Throws FormatError naming `source` when there is no iteration.
double steady_state_seconds(const AppIterationTimes& times, std::string_view source);

}  // namespace mheta::cli
