/* What libmheta-interpose.so tells the program it is loaded into, and
 * mheta's io/ and advisor/ libraries linked into it, in process.
 *
 * Like the marks (marks.h), the functions are weak: without the interposer
 * loaded they are null, and the inline helpers answer as a run without
 * capture would. C and C++ can use them.
 */
#ifndef MHETA_INTERPOSER_H
#define MHETA_INTERPOSER_H

#ifdef __cplusplus
extern "C" {
#endif

/* 1 while the interposer wants every distributed variable out of core: from
 * the iteration before the one it captures to the end of that one, so the
 * captured iteration is a steady out-of-core iteration on every rank. io/
 * asks at the start of each iteration (IclaGroup::follow_environment). */
int mheta_out_of_core_forced(void) __attribute__((weak));
/* The iteration the interposer captures (1-based; MHETA_CAPTURE_ITERATION,
 * default 2). */
long long mheta_capture_iteration(void) __attribute__((weak));
/* The path of the profile this run's interposer has written, once rank 0
 * wrote it (at the end of the captured iteration when the ranks mark it);
 * null before, on other ranks, or when capture failed. */
const char* mheta_profile_written(void) __attribute__((weak));
/* How many times longer than on the machine this rank's compute and MPI-IO
 * take (the emulated CPU factor, with the wall clock's dilation, and I/O
 * factor; 1 and 1 unemulated), once MPI_Init has returned: the rates a
 * cluster.json measured here describes (its nodes' "slowdown"). */
void mheta_emulated_slowdown(double* cpu, double* io) __attribute__((weak));

static inline int mheta_interposer_loaded(void) { return mheta_out_of_core_forced != 0; }
static inline int mheta_out_of_core_forced_now(void) {
  return mheta_out_of_core_forced ? mheta_out_of_core_forced() : 0;
}
static inline const char* mheta_written_profile(void) { return mheta_profile_written ? mheta_profile_written() : 0; }
static inline void mheta_slowdown(double* cpu, double* io) {
  *cpu = 1;
  *io = 1;
  if (mheta_emulated_slowdown) mheta_emulated_slowdown(cpu, io);
}

#ifdef __cplusplus
}
#endif

#endif /* MHETA_INTERPOSER_H */
