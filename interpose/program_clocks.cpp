#include "interpose/program_clocks.hpp"

#include <mpi.h>

#include <cerrno>
#include <cmath>
#include <cstdint>

#include "interpose/clock.hpp"
#include "interpose/engaged.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose {
namespace {

constexpr std::int64_t kNanoseconds = 1000000000;

timespec plus_seconds(const timespec& t, double seconds) {
  const std::int64_t ns = static_cast<std::int64_t>(t.tv_sec) * kNanoseconds + t.tv_nsec +
                          static_cast<std::int64_t>(std::llround(seconds * 1e9));
  timespec r{};
  r.tv_sec = static_cast<time_t>(ns / kNanoseconds);
  r.tv_nsec = static_cast<long>(ns % kNanoseconds);
  if (r.tv_nsec < 0) {
    r.tv_nsec += kNanoseconds;
    --r.tv_sec;
  }
  return r;
}

double seconds_between(const timespec& from, const timespec& to) {
  return static_cast<double>(to.tv_sec - from.tv_sec) + 1e-9 * static_cast<double>(to.tv_nsec - from.tv_nsec);
}

constexpr clockid_t kFollowed[] = {CLOCK_REALTIME,        CLOCK_MONOTONIC,        CLOCK_MONOTONIC_RAW,
                                   CLOCK_REALTIME_COARSE, CLOCK_MONOTONIC_COARSE, CLOCK_BOOTTIME,
                                   CLOCK_TAI};

}  // namespace

int ProgramClocks::index(clockid_t clock) {
  for (int i = 0; i < kClocks; ++i) {
    if (kFollowed[i] == clock) return i;
  }
  return -1;
}

bool ProgramClocks::follows(clockid_t clock) { return index(clock) >= 0; }

void ProgramClocks::start(double virtual_now) {
  for (int i = 0; i < kClocks; ++i) machine_clock_gettime(kFollowed[i], &started_[i]);
  virtual_start_ = virtual_now;
  state_.store(State::virtual_time, std::memory_order_release);
}

void ProgramClocks::finish(double virtual_now) {
  if (state() != State::virtual_time) return;
  for (int i = 0; i < kClocks; ++i) machine_clock_gettime(kFollowed[i], &finished_[i]);
  virtual_end_ = virtual_now;
  state_.store(State::after_virtual, std::memory_order_release);
}

timespec ProgramClocks::at(clockid_t clock, double virtual_now) const {
  return plus_seconds(started_[index(clock)], virtual_now - virtual_start_);
}

timespec ProgramClocks::after(clockid_t clock, const timespec& machine) const {
  const int i = index(clock);
  return plus_seconds(started_[i], virtual_end_ - virtual_start_ + seconds_between(finished_[i], machine));
}

// Initialized as the library loads, allocating nothing, and never destroyed
// (trivially): the program reads its clocks during exit, and other
// libraries' constructors before this library's, the allocator among them
// (AddressSanitizer's reads the clock as it first allocates).
namespace {
constinit ProgramClocks the_program_clocks;
}  // namespace

ProgramClocks& program_clocks() { return the_program_clocks; }

// The reading moves the clock as MPI_Wtime does: the compute up to it
// first. Inside an intercepted call (MPI's and the interposer's own
// readings) and on the program's other threads the machine's clock stands.
void program_clock_read(clockid_t clock, timespec& t) {
  const ProgramClocks& clocks = program_clocks();
  const ProgramClocks::State state = clocks.state();
  if (state == ProgramClocks::State::machine || !ProgramClocks::follows(clock) || ReentryGuard::inside()) return;
  Runtime& rt = Runtime::get();
  if (!rt.on_init_thread()) return;
  if (state == ProgramClocks::State::after_virtual) {
    t = clocks.after(clock, t);
    return;
  }
  const ReentryGuard guard;
  t = clocks.at(clock, rt.wtime(PMPI_Wtime()));
}

void program_slept(double seconds) {
  if (seconds <= 0 || program_clocks().state() != ProgramClocks::State::virtual_time || ReentryGuard::inside()) return;
  Runtime& rt = Runtime::get();
  if (rt.on_init_thread()) rt.clock().slept(seconds);
}

// The program's reading now (program_clock_read, which moves the virtual
// clock as any reading does) against the machine's gives the offset.
ProgramDeadline::ProgramDeadline(clockid_t clock, const timespec* deadline) : program_(deadline) {
  const ProgramClocks::State state = program_clocks().state();
  if (deadline == nullptr || state == ProgramClocks::State::machine || !ProgramClocks::follows(clock) ||
      ReentryGuard::inside() || !Runtime::get().on_init_thread()) {
    return;
  }
  timespec machine{};
  if (machine_clock_gettime(clock, &machine) != 0) return;
  timespec program = machine;
  program_clock_read(clock, program);
  machine_ = plus_seconds(*deadline, -seconds_between(machine, program));
  translated_ = true;
  owes_ = state == ProgramClocks::State::virtual_time;
  wait_s_ = seconds_between(program, *deadline);
  started_s_ = now_s();
}

// A timed-out wait never returns before its deadline; 1 us of slack covers
// the clocks' offsets, read a few hundred nanoseconds apart. The wait's
// errno (sem_timedwait's ETIMEDOUT) is the program's.
void ProgramDeadline::ended() const {
  const int call_errno = errno;
  if (owes_ && wait_s_ > 0 && now_s() - started_s_ >= wait_s_ - 1e-6) program_slept(wait_s_);
  errno = call_errno;
}

}  // namespace mheta::interpose
