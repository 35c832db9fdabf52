// The program's sleeps and yields (nanosleep, clock_nanosleep, usleep,
// sleep, sched_yield), passed on to the C library's; the processor time
// inside them is no compute (runtime.hpp, NotCompute). C++'s sleep_for
// reaches them as nanosleep, Fortran's SLEEP as sleep.
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>

#include "interpose/export.hpp"
#include "interpose/next_definition.hpp"
#include "interpose/runtime.hpp"

namespace {

using mheta::interpose::next_definition;

using Nanosleep = int (*)(const timespec*, timespec*);
using ClockNanosleep = int (*)(clockid_t, int, const timespec*, timespec*);
using Usleep = int (*)(useconds_t);
using Sleep = unsigned (*)(unsigned);
using SchedYield = int (*)();

}  // namespace

// Should the C library's definition not be found, the system call stands in.
extern "C" MHETA_EXPORT int nanosleep(const timespec* request, timespec* remaining) {
  static const Nanosleep next = next_definition<Nanosleep>("nanosleep");
  const mheta::interpose::NotCompute not_compute;
  return next != nullptr ? next(request, remaining)
                         : static_cast<int>(syscall(SYS_nanosleep, request, remaining));
}

extern "C" MHETA_EXPORT int clock_nanosleep(clockid_t clock, int flags, const timespec* request, timespec* remaining) {
  static const ClockNanosleep next = next_definition<ClockNanosleep>("clock_nanosleep");
  const mheta::interpose::NotCompute not_compute;
  if (next != nullptr) return next(clock, flags, request, remaining);
  // clock_nanosleep returns the error rather than setting errno.
  return syscall(SYS_clock_nanosleep, clock, flags, request, remaining) == 0 ? 0 : errno;
}

extern "C" MHETA_EXPORT int usleep(useconds_t microseconds) {
  static const Usleep next = next_definition<Usleep>("usleep");
  const mheta::interpose::NotCompute not_compute;
  if (next != nullptr) return next(microseconds);
  const timespec request{static_cast<time_t>(microseconds / 1000000), static_cast<long>(microseconds % 1000000) * 1000};
  return static_cast<int>(syscall(SYS_nanosleep, &request, nullptr));
}

extern "C" MHETA_EXPORT unsigned sleep(unsigned seconds) {
  static const Sleep next = next_definition<Sleep>("sleep");
  const mheta::interpose::NotCompute not_compute;
  if (next != nullptr) return next(seconds);
  timespec request{static_cast<time_t>(seconds), 0};
  timespec remaining{0, 0};
  return syscall(SYS_nanosleep, &request, &remaining) == 0 ? 0 : static_cast<unsigned>(remaining.tv_sec);
}

extern "C" MHETA_EXPORT int sched_yield() noexcept {
  static const SchedYield next = next_definition<SchedYield>("sched_yield");
  const mheta::interpose::NotCompute not_compute;
  return next != nullptr ? next() : static_cast<int>(syscall(SYS_sched_yield));
}
