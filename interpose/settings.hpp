#pragma once
// The interposer's configuration, read once from the environment
// (docs/interpose.md lists every variable). A bad value is reported on
// stderr and replaced by its default: the program must run regardless.
#include <cstdint>
#include <mheta/environment.hpp>
#include <optional>
#include <string>

#include "interpose/emulation_config.hpp"

namespace mheta::interpose {

enum class CaptureMode {
  off,        // MHETA_CAPTURE=off: never capture
  automatic,  // period of the call sequence (switches to `mark` when the program marks iterations)
  mark,       // mheta_iteration() ends an iteration
  pcontrol,   // MPI_Pcontrol(1) starts the capture, MPI_Pcontrol(0) ends it
  call,       // every k-th call of a named MPI function ends an iteration
};

// Which clock an emulated run keeps (docs/emulation.md, "Virtual time").
enum class ClockMode {
  wall,          // MHETA_CLOCK=wall: ranks sleep to stretch time, dilated when they share cores
  virtual_time,  // MHETA_CLOCK=virtual: each rank keeps a virtual clock; MPI_Wtime returns it
};

struct Settings {
  CaptureMode capture = CaptureMode::automatic;
  std::string call_name;  // call mode: "MPI_Allreduce"
  std::int64_t call_every = 1;
  std::int64_t capture_iteration = env::kDefaultCaptureIteration;
  std::string profile_path = env::kDefaultProfile;
  std::int64_t global_rows = 0;        // MHETA_ROWS; 0 = unknown
  std::string dist_path;               // MHETA_DIST
  std::int64_t stated_iterations = 0;  // MHETA_ITERATIONS: iterations of the whole run; 0 = count them
  std::string row_weights_path;        // MHETA_ROW_WEIGHTS
  std::optional<Emulation> emulation;  // MHETA_EMULATE
  WaitMode wait = WaitMode::spin;      // MHETA_WAIT (default sleep when emulating)
  ClockMode clock = ClockMode::wall;   // MHETA_CLOCK (default virtual when emulating, else wall)
  std::string accounting_path;         // MHETA_ACCOUNTING; empty: no accounting
  std::string accounting_call;         // MHETA_ACCOUNTING_CALL's function; empty: none
  std::int64_t accounting_call_every = 1;
  std::int64_t accounting_samples = 0;  // MHETA_ACCOUNTING_SAMPLES: keep N to 5N iterations; 0: every one
  std::int64_t gather_wait_s = env::kDefaultGatherWait;  // MHETA_GATHER_WAIT
};

// Reads the MHETA_* variables; warnings go to stderr prefixed with the rank.
Settings read_settings(int rank);

}  // namespace mheta::interpose
