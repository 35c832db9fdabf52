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
// over the ranks of each rank's mean: a rank's iterations follow each other,
// so that is the elapsed time of the run per iteration. The mean over the
// iterations of the slowest rank's time would add up every rank's jitter
// (the slowest of four noisy ranks is slow in almost every iteration,
// though the ranks wait for each other only now and then). Without rank
// lines, the mean of the iteration lines. Throws FormatError naming
// `source` when there is no iteration.
double steady_state_seconds(const AppIterationTimes& times, std::string_view source);

}  // namespace mheta::cli
