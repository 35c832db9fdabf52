// The program's clock reads (clock_gettime, gettimeofday, timespec_get),
// passed on to the C library's, the reading then made what the program is
// to see: under the virtual clock, virtual time (program_clocks.hpp). C++'s
// std::chrono clocks reach them as clock_gettime, Fortran's system_clock
// and date_and_time too; omp_get_wtime as well.
#include <sys/time.h>
#include <time.h>

#include "interpose/clock.hpp"
#include "interpose/early_entry.hpp"
#include "interpose/export.hpp"
#include "interpose/next_definition.hpp"
#include "interpose/program_clocks.hpp"

namespace {

using mheta::interpose::next_definition;

using Gettimeofday = int (*)(timeval*, void*);
using TimespecGet = int (*)(timespec*, int);

}  // namespace

extern "C" MHETA_EXPORT MHETA_EARLY_ENTRY int clock_gettime(clockid_t clock, timespec* t) noexcept {
  mheta_early_start();
  const int rc = mheta::interpose::machine_clock_gettime(clock, t);
  if (rc == 0) mheta::interpose::program_clock_read(clock, *t);
  return rc;
}

// The time of day at the clock's resolution (microseconds), from
// CLOCK_REALTIME as the C library's; its time zone, which nothing sets any
// more, from the C library's.
extern "C" MHETA_EXPORT MHETA_EARLY_ENTRY int gettimeofday(timeval* tv, void* tz) noexcept {
  mheta_early_start();
  static const Gettimeofday next = next_definition<Gettimeofday>("gettimeofday");
  timespec t{};
  if (mheta::interpose::machine_clock_gettime(CLOCK_REALTIME, &t) != 0) return -1;
  if (tz != nullptr && next != nullptr) {
    timeval ignored{};
    next(&ignored, tz);
  }
  mheta::interpose::program_clock_read(CLOCK_REALTIME, t);
  tv->tv_sec = t.tv_sec;
  tv->tv_usec = static_cast<suseconds_t>(t.tv_nsec / 1000);
  return 0;
}

// C11's: TIME_UTC is the time of day. The C library answers it without
// its exported clock_gettime, so it is read here.
extern "C" MHETA_EXPORT MHETA_EARLY_ENTRY int timespec_get(timespec* t, int base) noexcept {
  mheta_early_start();
  static const TimespecGet next = next_definition<TimespecGet>("timespec_get");
  if (base != TIME_UTC) return next != nullptr ? next(t, base) : 0;
  if (mheta::interpose::machine_clock_gettime(CLOCK_REALTIME, t) != 0) return 0;
  mheta::interpose::program_clock_read(CLOCK_REALTIME, *t);
  return base;
}
