#pragma once
// The time budget, shared out among the phases. Each phase ends at a fixed
// fraction of the whole budget counted from the start, so time a fast phase
// leaves unused rolls over to the next. Rank 0's clock decides for everyone
// (the decision travels with the per-round agreement), so ranks never
// disagree on when a phase ends. The budget is the user's time, the wall
// clock's: under emulation MPI_Wtime is the emulated cluster's virtual time
// (docs/emulation.md), which the probes measure but the budget must not.

#include <mpi.h>

#include <string>

namespace mheta::microbench {

// Seconds of the wall clock (monotonic), for budgets and real waits.
double wall_s();

class Budget {
 public:
  Budget(double seconds, MPI_Comm comm, bool show_progress = false);

  // Starts the phase that must end when `cumulative_fraction` of the budget
  // has passed; names it for the progress line.
  void begin_phase(const std::string& name, double cumulative_fraction);
  double phase_deadline() const { return phase_deadline_; }
  double phase_seconds() const { return phase_deadline_ - phase_start_; }
  bool phase_time_up() const { return wall_s() >= phase_deadline_; }

  // Ends a round of measurement: every rank says whether it wants more
  // samples; returns true when the phase should go on (some rank wants more
  // and rank 0's clock has time left). A round always completes, so a tiny
  // budget still yields one round of every figure.
  bool another_round(bool want_more, int rounds_done);

  double elapsed() const { return wall_s() - start_; }
  double seconds() const { return seconds_; }
  const std::string& phase() const { return phase_; }
  int rank() const { return rank_; }
  // Rewrites the progress line on a terminal (rank 0, stderr only).
  void show_progress(int rounds_done) const;
  // Ends the progress line, if one was shown.
  void finish_progress() const;

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  double seconds_;
  double start_;
  double phase_start_ = 0;
  double phase_deadline_ = 0;
  std::string phase_;
  bool tty_ = false;
  mutable double last_shown_ = -1;  // at most 10 progress lines a second
};

}  // namespace mheta::microbench
