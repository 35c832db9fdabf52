#pragma once
// Per-iteration wall times and I/O of a run, printed by rank 0 as JSON
// lines on stdout after the main loop (docs/apps.md describes them):
//   {"mheta":"iteration","index":k,"seconds":s}          s: the slowest rank's
//   {"mheta":"rank","rank":r,...,"iterations":[...]}     one per rank: plans and I/O per iteration
//   {"mheta":"result","app":"cg","check":"PASS",...}
// Gathering once after the loop keeps the loop's communication the program's own.
#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/icla_array.hpp"
#include "io/io_counters.hpp"
#include "io/sweep_plan.hpp"

namespace mheta::apps {

class IterationReport {
 public:
  // Describes the rank's ICLA plan for the rank line.
  void describe(const io::SweepSettings& settings, const std::vector<const io::IclaArray*>& arrays, std::int64_t rows);
  void begin_iteration();
  // Records the iteration and marks its end for the interposer.
  void end_iteration();
  // Collective: rank 0 prints the iteration and rank lines.
  void print(MPI_Comm comm) const;

 private:
  nlohmann::json rank_line_ = nlohmann::json::object();
  std::vector<double> seconds_;
  std::vector<io::IoCounters> io_;
  double started_ = 0;
  io::IoCounters counters_at_start_;
};

// Rank 0 prints the result line and a human line "<app>: PASS|FAIL (<detail>)".
void print_result(MPI_Comm comm, const std::string& app, bool pass, const nlohmann::json& detail);

}  // namespace mheta::apps
