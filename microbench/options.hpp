#pragma once
// What `mheta-microbench` (and `mheta microbench`) is asked to measure, and
// within which time.
#include <cstdint>
#include <string>
#include <vector>

#include "model/collective.hpp"

namespace mheta::microbench {

struct Options {
  std::string output = "cluster.json";
  // Progress line on stderr: "auto" shows it when stderr is a terminal,
  // which it never is under mpiexec (the launcher pipes it), so
  // `mheta microbench` passes "always" when its own stderr is one.
  std::string progress = "auto";
  double budget_s = 60;                // the whole run, every phase included
  double target_relative_ci95 = 0.05;  // stop repeating a figure once its 95% CI is this tight
  std::string disk_dir;                // empty: a fresh directory under $TMPDIR (or /tmp)
  std::int64_t disk_file_bytes = 32 << 20;
  std::int64_t max_message_bytes = 1 << 20;
  std::int64_t max_collective_bytes = 256 << 10;
  // Collectives of a program (`--profile`), timed at their own rank and
  // byte counts beside the sweep, and written as measured points
  // (microbench/program_collectives.hpp).
  struct ProgramCollective {
    model::Collective op = model::Collective::barrier;
    int ranks = 0;
    std::int64_t bytes = 0;
    auto operator<=>(const ProgramCollective&) const = default;
  };
  std::vector<std::string> profiles;
  std::vector<ProgramCollective> program_collectives;
};

}  // namespace mheta::microbench
