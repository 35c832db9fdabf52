#pragma once
// The clocks a program times itself with besides MPI_Wtime: clock_gettime's
// elapsed-time and time-of-day clocks (C's, C++'s std::chrono clocks and
// Fortran's system_clock read them), gettimeofday, timespec_get
// (clock_reads.cpp). Under the virtual clock they tell virtual time, as
// MPI_Wtime does (docs/emulation.md, "The program's own clocks"): each is
// anchored where the virtual clock starts, at its reading then, and goes on
// from there by the virtual time elapsed, so a program that times its loop
// with them reports emulated times, and a reading never goes back. After
// MPI_Finalize they go on at the machine's pace from where virtual time
// ended. The processor-time clocks (CLOCK_PROCESS_CPUTIME_ID, a thread's)
// stay the machine's: they are what the virtual clock is made of.
#include <atomic>
#include <ctime>

namespace mheta::interpose {

class ProgramClocks {
 public:
  enum class State { machine, virtual_time, after_virtual };

  // Whether `clock` is one that follows the virtual clock.
  static bool follows(clockid_t clock);

  // The virtual clock has started, reading `virtual_now` (seconds).
  void start(double virtual_now);
  // It stops, at `virtual_now`: from here on the machine's pace.
  void finish(double virtual_now);
  State state() const { return state_.load(std::memory_order_acquire); }

  // `clock`'s reading at virtual time `virtual_now` (state virtual_time).
  timespec at(clockid_t clock, double virtual_now) const;
  // `clock`'s reading once virtual time has ended, from the machine's
  // reading `machine` (state after_virtual).
  timespec after(clockid_t clock, const timespec& machine) const;

 private:
  static constexpr int kClocks = 7;
  static int index(clockid_t clock);

  timespec started_[kClocks]{};   // each clock's machine reading as virtual time started
  timespec finished_[kClocks]{};  // and as it ended
  double virtual_start_ = 0;
  double virtual_end_ = 0;
  std::atomic<State> state_{State::machine};
};

// The process's one set (the virtual clock starts and finishes it).
ProgramClocks& program_clocks();

// A program's reading of `clock`, `t` the machine's: changed to what the
// program is to see (unchanged unless the virtual clock runs, on the thread
// that started MPI, outside intercepted calls).
void program_clock_read(clockid_t clock, timespec& t);

// The program slept `seconds` (a sleep call's request): under the virtual
// clock, on the thread that started MPI, outside intercepted calls, owed to
// its clock until it reads it or calls MPI (VirtualClockService::slept).
void program_slept(double seconds);

// A deadline the program computed from one of its clocks, for a call that
// waits until it (clock_nanosleep's TIMER_ABSTIME, sleep_calls.cpp;
// condition variables, timed locks, semaphores and joins,
// deadline_waits.cpp). Where its clocks tell virtual time
// the deadline is not the machine's: it is translated by the difference
// between the two clocks now, so the wait lasts what the program asked
// for, and a wait that lasted until its deadline leaves the program's
// clock there (program_slept). A wait that ended earlier (signalled,
// unlocked) moves no clock.
class ProgramDeadline {
 public:
  ProgramDeadline(clockid_t clock, const timespec* deadline);
  // The deadline to pass to the C library.
  const timespec* machine() const { return translated_ ? &machine_ : program_; }
  // The wait has returned.
  void ended() const;

 private:
  const timespec* program_;
  timespec machine_{};
  bool translated_ = false;
  bool owes_ = false;     // a wait that reaches its deadline moves the virtual clock
  double wait_s_ = 0;     // from the program's reading to its deadline
  double started_s_ = 0;  // the machine's monotonic clock as the wait began
};

}  // namespace mheta::interpose
