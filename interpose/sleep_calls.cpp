// The program's sleeps and yields (nanosleep, clock_nanosleep, usleep,
// sleep, sched_yield), passed on to the C library's; the processor time
// inside them is no compute (runtime.hpp, NotCompute). C++'s sleep_for
// reaches them as nanosleep, Fortran's SLEEP as sleep. The time a sleep
// lasted is owed to the virtual clock (program_clocks.hpp, program_slept),
// and an absolute clock_nanosleep deadline, computed from the program's
// clock, is translated to the machine's (ProgramDeadline).
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>

#include "interpose/clock.hpp"
#include "interpose/early_entry.hpp"
#include "interpose/export.hpp"
#include "interpose/next_definition.hpp"
#include "interpose/program_clocks.hpp"
#include "interpose/runtime.hpp"

namespace {

using mheta::interpose::next_definition;
using mheta::interpose::program_slept;
using mheta::interpose::seconds_of;

// What an interrupted relative sleep slept: its request less what remains.
void slept_relative(const timespec* request, const timespec* remaining, bool interrupted) {
  if (request == nullptr) return;
  program_slept(seconds_of(*request) - (interrupted && remaining != nullptr ? seconds_of(*remaining) : 0.0));
}

using Nanosleep = int (*)(const timespec*, timespec*);
using ClockNanosleep = int (*)(clockid_t, int, const timespec*, timespec*);
using Usleep = int (*)(useconds_t);
using Sleep = unsigned (*)(unsigned);
using SchedYield = int (*)();

}  // namespace

// Should the C library's definition not be found, the system call stands in.
extern "C" MHETA_EXPORT MHETA_EARLY_ENTRY int nanosleep(const timespec* request, timespec* remaining) {
  mheta_early_start();
  static const Nanosleep next = next_definition<Nanosleep>("nanosleep");
  const mheta::interpose::NotCompute not_compute;
  const int rc =
      next != nullptr ? next(request, remaining) : static_cast<int>(syscall(SYS_nanosleep, request, remaining));
  slept_relative(request, remaining, rc != 0 && errno == EINTR);
  return rc;
}

extern "C" MHETA_EXPORT MHETA_EARLY_ENTRY int clock_nanosleep(clockid_t clock, int flags, const timespec* request,
                                                              timespec* remaining) {
  mheta_early_start();
  static const ClockNanosleep next = next_definition<ClockNanosleep>("clock_nanosleep");
  const mheta::interpose::NotCompute not_compute;
  const bool absolute = (flags & TIMER_ABSTIME) != 0;
  const mheta::interpose::ProgramDeadline deadline(clock, absolute ? request : nullptr);
  const timespec* machine_request = absolute ? deadline.machine() : request;
  // clock_nanosleep returns the error rather than setting errno.
  const int rc = next != nullptr ? next(clock, flags, machine_request, remaining)
                 : syscall(SYS_clock_nanosleep, clock, flags, machine_request, remaining) == 0 ? 0
                                                                                               : errno;
  if (absolute) {
    deadline.ended();
  } else {
    slept_relative(request, remaining, rc == EINTR);
  }
  return rc;
}

extern "C" MHETA_EXPORT MHETA_EARLY_ENTRY int usleep(useconds_t microseconds) {
  mheta_early_start();
  static const Usleep next = next_definition<Usleep>("usleep");
  const mheta::interpose::NotCompute not_compute;
  const timespec request{static_cast<time_t>(microseconds / 1000000), static_cast<long>(microseconds % 1000000) * 1000};
  const int rc = next != nullptr ? next(microseconds) : static_cast<int>(syscall(SYS_nanosleep, &request, nullptr));
  if (rc == 0) program_slept(seconds_of(request));
  return rc;
}

extern "C" MHETA_EXPORT MHETA_EARLY_ENTRY unsigned sleep(unsigned seconds) {
  mheta_early_start();
  static const Sleep next = next_definition<Sleep>("sleep");
  const mheta::interpose::NotCompute not_compute;
  timespec request{static_cast<time_t>(seconds), 0};
  timespec remaining{0, 0};
  const unsigned left = next != nullptr                                     ? next(seconds)
                        : syscall(SYS_nanosleep, &request, &remaining) == 0 ? 0
                                                                            : static_cast<unsigned>(remaining.tv_sec);
  program_slept(static_cast<double>(seconds - left));
  return left;
}

extern "C" MHETA_EXPORT MHETA_EARLY_ENTRY int sched_yield() noexcept {
  mheta_early_start();
  static const SchedYield next = next_definition<SchedYield>("sched_yield");
  const mheta::interpose::NotCompute not_compute;
  return next != nullptr ? next() : static_cast<int>(syscall(SYS_sched_yield));
}
