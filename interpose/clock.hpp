#pragma once
// The interposer's clock: monotonic, in seconds, cheap (vDSO), independent
// of MPI so it can be read before MPI_Init and after MPI_Finalize.
#include <ctime>

namespace mheta::interpose {

// The C library's clock_gettime. The interposer defines the program's
// (clock_reads.cpp: under the virtual clock a program reads virtual time),
// so its own readings, and anything it times, go past that one.
int machine_clock_gettime(clockid_t clock, timespec* t);

inline double seconds_of(const timespec& t) {
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

inline double now_s() {
  timespec t{};
  machine_clock_gettime(CLOCK_MONOTONIC, &t);
  return seconds_of(t);
}

// The calling thread's CPU time, seconds.
double thread_cpu_s();
// The CPU time that reading thread_cpu_s() puts between two readings: the
// median of back-to-back pairs, measured on the calling thread. Where the
// vDSO has no thread CPU clock (virtual machines) each reading is a system
// call of ~0.4 us, so two readings with nothing between them differ by that
// much; every compute section measured between two intercepted calls holds
// it once, and it is no compute of the program.
double thread_cpu_read_cost_s();
// The time the calling thread has so far spent runnable but waiting for a
// core (Linux's /proc/thread-self/schedstat), seconds; 0 where unknown.
double thread_queued_s();
// Whether the kernel tells thread_queued_s() for the calling thread.
bool thread_queued_s_known();
// How many times the calling thread has been preempted so far: taken off its
// core while it could still run (getrusage's involuntary context switches);
// -1 where unknown.
long thread_preemptions();

// Sleeps `seconds` (no-op when <= 0); nanosleep restarts after signals.
void sleep_s(double seconds);

}  // namespace mheta::interpose
