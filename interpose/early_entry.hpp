#pragma once
// The C library functions the interposer also defines (the program's clock
// reads, sleeps and deadline waits) are called by other libraries too, from
// their constructors, before any of this library's have run: MPICH's UCX
// reads the time of day as it loads. In a build with AddressSanitizer that
// can be before the sanitizer's runtime has started (a program not built
// with it, the runtime loaded with this library), when every instrumented
// access faults. Such an entry point is left uninstrumented
// (MHETA_EARLY_ENTRY) and starts the runtime before anything else
// (mheta_early_start: __asan_init, which the constructor of every
// instrumented library calls and which does nothing once it has run).
#if defined(__SANITIZE_ADDRESS__)
#define MHETA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MHETA_ASAN 1
#endif
#endif

#ifdef MHETA_ASAN
extern "C" void __asan_init();
#define MHETA_EARLY_ENTRY __attribute__((no_sanitize("address")))
inline void mheta_early_start() { __asan_init(); }
#else
#define MHETA_EARLY_ENTRY
inline void mheta_early_start() {}
#endif
