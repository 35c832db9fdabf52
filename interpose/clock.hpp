#pragma once
// The interposer's clock: monotonic, in seconds, cheap (vDSO), independent
// of MPI so it can be read before MPI_Init and after MPI_Finalize.
#include <ctime>

namespace mheta::interpose {

inline double now_s() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// Sleeps `seconds` (no-op when <= 0); nanosleep restarts after signals.
void sleep_s(double seconds);

}  // namespace mheta::interpose
