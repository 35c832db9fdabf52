/* Compute whose virtual time is known in advance: the virtual clock counts
 * the thread's CPU time (times the CPU factor), so a loop that runs until
 * the thread's CPU clock has advanced by S seconds lasts S x factor. */
#ifndef MHETA_TESTS_VCLOCK_CPU_BURN_H
#define MHETA_TESTS_VCLOCK_CPU_BURN_H

#include <time.h>

static inline double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static volatile double g_cpu_burn_sink;

/* Computes for `seconds` of CPU time; returns the CPU time it took. */
static inline double compute_for(double seconds) {
  const double start = cpu_seconds();
  double x = 1;
  while (cpu_seconds() - start < seconds) {
    for (int i = 0; i < 1000; ++i) x = x * 1.0000001 + 1e-9;
  }
  g_cpu_burn_sink = x;
  return cpu_seconds() - start;
}

#endif
