#include "interpose/emulator.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>

#include "interpose/clock.hpp"

namespace mheta::interpose {

namespace {

// Sleeps shorter than this are owed, not slept (nanosleep's own overhead is
// tens of microseconds); what nanosleep oversleeps is credited against the
// next sleep. Per thread, so threads do not pay each other's debts. Many short
// gaps then add up right on average, although one section may end a little
// early or late.
constexpr double kMinSleep = 100e-6;
thread_local double t_compute_debt = 0;
thread_local double t_io_debt = 0;

void pay(double& debt, double seconds) {
  debt += seconds;
  if (debt < kMinSleep) return;
  const double start = now_s();
  sleep_s(debt);
  debt -= now_s() - start;
}

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

}  // namespace

double thread_cpu_s() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double thread_queued_s() {
  thread_local const SchedstatFile file;
  const int fd = file.fd;
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

void Emulator::configure(const RankEmulation& rank, double dilation) {
  rank_ = rank;
  compute_factor_ = rank.cpu_factor * (dilation > 1 ? dilation : 1);
  active_ = true;
}

double Emulator::stretch_compute(double cpu_s, double wall_s) const {
  const double emulated = emulated_compute(cpu_s);
  // Only what the section still lacks is slept: the time the thread waited
  // for a core already counts towards the emulated duration.
  if (emulated > wall_s) pay(t_compute_debt, emulated - wall_s);
  return emulated;
}

double Emulator::stretch_io(double io_s, double wall_s) const {
  if (!(io_s > 0)) return 0;
  const double emulated = rank_.io_factor * std::min(io_s, wall_s);
  if (emulated > wall_s) pay(t_io_debt, emulated - wall_s);
  return emulated;
}

}  // namespace mheta::interpose
