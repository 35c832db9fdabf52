#pragma once
// Accounting (MHETA_ACCOUNTING, docs/interpose.md "Accounting"): on every
// iteration, not only the captured one, where each rank's time went:
// compute, I/O, communication, waiting and the iteration's total, in the
// run's clock (virtual when the virtual clock times the run, wall
// otherwise). Iterations end where the capture's boundaries are: the
// program's marks, else its MPI_Pcontrol(1) calls, else the k-th calls of
// the function that ends an iteration (`call:` mode, or the one automatic
// detection found: boundary_counter.hpp). At MPI_Finalize the ranks'
// records are gathered to rank 0, which writes accounting.json
// (model/accounting.hpp).
//
// Per iteration also the time the rank's thread waited for a core (the
// kernel's run-queue delay): under the wall clock, what of the iteration
// the machine took.
//
// Light: per call two clock reads and an add; per iteration one fixed-size
// record appended and one read of /proc/thread-self/schedstat. Off, the
// service does not exist.
//
// Sampled (MHETA_ACCOUNTING_SAMPLES=N, iterations ended by calls or marks):
// the records after the first are the run's iterations whose number is a
// multiple of `every`, which grows 5-fold (four records in five dropped)
// whenever 5N are kept, so N to 5N of them spread evenly over any run, and
// never only the odd or only the even ones (accounting_service.cpp,
// thin()). Between two
// samples the service lets the wrappers idle (unless another service keeps
// them engaged), and the boundary counter engages them again at the call
// or mark that starts the next sample (boundary_counter.hpp): a long run
// costs what the default capture mode costs, not two clock reads a call.
#include <mpi.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "interpose/service.hpp"
#include "model/accounting.hpp"

namespace mheta::interpose {

class AccountingService final : public Service {
 public:
  const char* name() const override { return "accounting"; }
  void on_start(Runtime& rt) override;
  void on_finish(Runtime& rt) override;
  bool keeps_engaged(const Runtime&) const override { return recording_ || !sampling(); }

  void before_call(Runtime& rt, Fn fn, ComputeSection&) override;
  std::optional<int> run_blocking(Runtime& rt, const BlockingCall& call) override;
  void after_call(Runtime& rt, Fn fn, const CallInfo&, int) override;
  void on_program_mark(Runtime& rt) override;
  void on_pcontrol(Runtime& rt, int level) override;

  // Where the time of one call goes.
  enum class Term { io, comm, wait };

 private:
  enum class Boundary { none, mark, pcontrol, call };
  double now(Runtime& rt) const;
  static double since(double start, double t);
  bool on_my_thread() const { return std::this_thread::get_id() == thread_; }
  // The records so far are of iterations that do not count (another
  // source, another loop's boundary).
  void drop_records();
  // The records renumbered by the run's count settled at its end.
  void renumber(std::int64_t shift);
  // The compute up to `t` (the end of the last call or boundary to `t`).
  void add_compute(double t);
  // The run's iteration `iteration` (as `source` counts them) ended at
  // `t`, told by `source`; a sampled run records only its samples. The
  // first record starts at MPI_Init (setup included), and one closed when
  // automatic detection started counting may hold several iterations:
  // readers skip the first.
  void end_iteration(Runtime& rt, double t, Boundary source, std::int64_t iteration);
  // Sampling: whether the records are thinned, the iteration that ended at
  // `counted` is one to keep, and what to do before the next one.
  bool sampling() const { return samples_ > 0 && (boundary_ == Boundary::call || boundary_ == Boundary::mark); }
  bool is_sample(std::int64_t counted) const { return counted == skipped_ || counted % every_ == 0; }
  void thin();
  void sample_next(Runtime& rt, std::int64_t counted);
  // At a call, mark or MPI_Pcontrol before the sample's start: whether it
  // starts it.
  bool wakes(Runtime& rt, bool at_program_boundary);

  std::thread::id thread_;  // MPI_Init's: calls of other threads are not accounted
  MPI_Comm comm_ = MPI_COMM_NULL;  // a private duplicate, for the gather at MPI_Finalize
  bool virtual_ = false;           // the virtual clock timed every record
  Boundary boundary_ = Boundary::none;
  double last_ = 0;             // the end of the last call or boundary, the run's clock
  double call_start_ = 0;
  double iteration_start_ = 0;
  bool in_call_ = false;
  Term call_term_ = Term::comm;
  std::int64_t counted_ = 0;    // boundaries_counted() at the last call boundary
  std::int64_t generation_ = 0;  // boundary_generation() of the records kept
  std::int64_t skipped_ = 0;     // the run's iterations ended before the records kept (model::Accounting::skipped)
  std::int64_t samples_ = 0;   // MHETA_ACCOUNTING_SAMPLES; 0: every iteration
  std::int64_t every_ = 1;     // the records after the first are the multiples of it (model::Accounting::every)
  std::int64_t wake_at_ = -1;  // the iteration whose end starts the next sample
  bool recording_ = true;      // this iteration is accounted from its start
  model::IterationTerms current_;
  std::vector<model::IterationTerms> iterations_;
  double queued_start_ = 0;     // the thread's run-queue delay at the iteration's start
  std::vector<double> queued_;  // per iteration, beside iterations_
};

}  // namespace mheta::interpose
