/* CPU work of a known duration for the test programs that check how the
 * interposer times compute (tests/vclock, tests/interpose): a busy loop
 * that runs until the calling thread has used `seconds` of CPU time, so the
 * work is the same however the ranks share the cores. */
#ifndef MHETA_TESTS_CPU_WORK_H
#define MHETA_TESTS_CPU_WORK_H

#include <time.h>

static inline double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static volatile double g_cpu_work_sink;

/* Returns the CPU seconds it took (a little more than asked). */
static inline double compute_for(double seconds) {
  const double start = cpu_seconds();
  double x = 1;
  while (cpu_seconds() - start < seconds) {
    for (int i = 0; i < 1000; ++i) x = x * 1.0000001 + 1e-9;
  }
  g_cpu_work_sink = x;
  return cpu_seconds() - start;
}

#endif
