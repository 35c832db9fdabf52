#include "interpose/clock.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace mheta::interpose {

namespace {

// Opened once per thread (pread re-reads the current figures), closed when
// the thread ends.
struct SchedstatFile {
  int fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  SchedstatFile() = default;
  SchedstatFile(const SchedstatFile&) = delete;
  SchedstatFile& operator=(const SchedstatFile&) = delete;
  ~SchedstatFile() {
    if (fd >= 0) close(fd);
  }
};

using ClockGettime = int (*)(clockid_t, timespec*);

// The definition after this library's: the C library's (vDSO-backed).
ClockGettime machine_clock() {
  static const auto next = reinterpret_cast<ClockGettime>(dlsym(RTLD_NEXT, "clock_gettime"));
  return next;
}

}  // namespace

// Should the C library's definition not be found, the system call stands in.
int machine_clock_gettime(clockid_t clock, timespec* t) {
  const ClockGettime next = machine_clock();
  return next != nullptr ? next(clock, t) : static_cast<int>(syscall(SYS_clock_gettime, clock, t));
}

void sleep_s(double seconds) {
  if (!(seconds > 0)) return;
  const double whole = std::floor(seconds);
  timespec request{static_cast<time_t>(whole), static_cast<long>((seconds - whole) * 1e9)};
  timespec remaining{};
  while (nanosleep(&request, &remaining) != 0 && errno == EINTR) request = remaining;
}

double thread_cpu_s() {
  timespec t{};
  machine_clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return seconds_of(t);
}

double thread_cpu_read_cost_s() {
  std::array<double, 63> deltas{};
  for (double& d : deltas) {
    const double first = thread_cpu_s();
    d = thread_cpu_s() - first;
  }
  auto middle = deltas.begin() + deltas.size() / 2;
  std::nth_element(deltas.begin(), middle, deltas.end());
  return std::max(*middle, 0.0);
}

namespace {

const SchedstatFile& thread_schedstat() {
  thread_local const SchedstatFile file;
  return file;
}

}  // namespace

bool thread_queued_s_known() { return thread_schedstat().fd >= 0; }

double thread_queued_s() {
  const int fd = thread_schedstat().fd;
  if (fd < 0) return 0;
  char text[128];
  const ssize_t n = pread(fd, text, sizeof text - 1, 0);
  if (n <= 0) return 0;
  text[n] = '\0';
  // "<ns on a cpu> <ns waiting on a run queue> <timeslices>"
  char* end = nullptr;
  std::strtoull(text, &end, 10);
  return 1e-9 * static_cast<double>(std::strtoull(end, nullptr, 10));
}

long thread_preemptions() {
  rusage usage{};
  if (getrusage(RUSAGE_THREAD, &usage) != 0) return -1;
  return usage.ru_nivcsw;
}

}  // namespace mheta::interpose
