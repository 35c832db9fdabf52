#include "microbench/budget.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "microbench/quiet_wait.hpp"

namespace mheta::microbench {

// The system call, not the C library's clock_gettime: under the virtual
// clock the interposer makes the program's clocks tell virtual time, and
// the budget is the user's time.
double wall_s() {
  timespec t{};
  syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

Budget::Budget(double seconds, MPI_Comm comm, bool show_progress) : comm_(comm), seconds_(seconds) {
  MPI_Comm_rank(comm, &rank_);
  // Everyone starts the clock together so phase deadlines agree.
  quiet_barrier(comm);
  start_ = wall_s();
  tty_ = rank_ == 0 && show_progress;
}

void Budget::begin_phase(const std::string& name, double cumulative_fraction) {
  phase_ = name;
  phase_start_ = wall_s();
  phase_deadline_ = std::max(phase_start_, start_ + cumulative_fraction * seconds_);
  show_progress(0);
}

bool Budget::another_round(bool want_more, int rounds_done) {
  // {some rank wants more, rank 0 has run out of time}
  int local[2] = {want_more ? 1 : 0, rank_ == 0 && phase_time_up() ? 1 : 0};
  int global[2] = {0, 0};
  quiet_allreduce(local, global, 2, MPI_INT, MPI_MAX, comm_);
  show_progress(rounds_done);
  return global[0] == 1 && global[1] == 0;
}

void Budget::show_progress(int rounds_done) const {
  if (!tty_) return;
  const double now = wall_s();
  if (rounds_done > 0 && now - last_shown_ < 0.1) return;
  last_shown_ = now;
  const double elapsed = now - start_;
  std::fprintf(stderr, "\r\033[Kmheta-microbench: %-12s round %4d   %5.1f s of %.1f s", phase_.c_str(), rounds_done,
               elapsed, seconds_);
  std::fflush(stderr);
}

void Budget::finish_progress() const {
  if (tty_) std::fprintf(stderr, "\n");
}

}  // namespace mheta::microbench
