/* Optional marks a program can place for mheta's interposer.
 *
 * The functions are weak: without libmheta-interpose.so loaded they are
 * null and the inline helpers below do nothing, so a program can call them
 * unconditionally. C, C++ and (through ISO_C_BINDING) Fortran can use them.
 */
#ifndef MHETA_MARKS_H
#define MHETA_MARKS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Ends an iteration of the program's main loop. */
void mheta_iteration(void) __attribute__((weak));
/* Subdivide a section into stages (MHETA §3.1). */
void mheta_stage_begin(const char* name) __attribute__((weak));
void mheta_stage_end(void) __attribute__((weak));

static inline void mheta_mark_iteration(void) {
  if (mheta_iteration) mheta_iteration();
}
static inline void mheta_mark_stage_begin(const char* name) {
  if (mheta_stage_begin) mheta_stage_begin(name);
}
static inline void mheta_mark_stage_end(void) {
  if (mheta_stage_end) mheta_stage_end();
}

#ifdef __cplusplus
}
#endif

#endif /* MHETA_MARKS_H */
