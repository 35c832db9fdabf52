#include "interpose/accounting_service.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <mutex>
#include <string>

#include "interpose/boundary_counter.hpp"
#include "interpose/call.hpp"
#include "interpose/clock.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose {

namespace {

using Term = AccountingService::Term;

// How much a sampled run's stride grows at each thinning (thin()).
constexpr std::int64_t kThinning = 5;

// Every intercepted function's category, in table order (mpi_functions.def).
constexpr Category kCategories[] = {
#define MHETA_MPI(Name, Cat, ...) Category::Cat,
#include "interpose/mpi_functions_all.def"
#undef MHETA_MPI
};

// Where a call's time goes, by what the call does: MPI-IO is I/O; a call
// that completes a receive, a request or a collective waits for another
// rank (its transfer and the collective's own cost included: which part of
// such a call was the network's cannot be told from inside it); a call that
// only sends or posts is communication.
Term term_of(Fn fn) {
  switch (kCategories[static_cast<int>(fn)]) {
    case Category::file_open:
    case Category::file_close:
    case Category::file_read:
    case Category::file_write:
    case Category::file_iread:
    case Category::file_iwrite:
    case Category::file_sync:
    case Category::file_split_read:
    case Category::file_split_write:
    case Category::file_split_end:
      return Term::io;
    case Category::recv:
    case Category::sendrecv:
    case Category::completion:
    case Category::collective:
    case Category::neighbour:
    case Category::win_fence:
    case Category::win_complete:
    case Category::win_wait:
    case Category::win_lock:
    case Category::win_flush:
    case Category::win_flush_local:
    case Category::probe:
    case Category::partitioned:  // MPI_Parrived's polls above all
    case Category::file_control:  // a wait for the file's last rank
      return Term::wait;
    default:
      return Term::comm;
  }
}

const char* boundary_name(int boundary) {
  static constexpr const char* kNames[] = {"none", "mark", "pcontrol", "call"};
  return kNames[boundary];
}

// The ranks' boundary calls, (function, every, skipped, stride) per rank, as
// MHETA_ACCOUNTING_CALL takes them: "MPI_Name:k" when every rank's is the
// same, else one per rank separated by commas, empty for a rank without
// one (a rank idle in the loop); empty when no rank has one.
std::string call_list(const std::vector<std::int64_t>& calls) {
  std::vector<std::string> each;
  bool any = false;
  for (std::size_t r = 0; r + 3 < calls.size(); r += 4) {
    const bool known = calls[r] >= 0 && calls[r] < static_cast<std::int64_t>(Fn::count_);
    any = any || known;
    each.push_back(known ? std::string(fn_name(static_cast<Fn>(calls[r]))) + ":" + std::to_string(calls[r + 1]) : "");
  }
  if (!any) return "";
  if (std::all_of(each.begin(), each.end(), [&](const std::string& c) { return c == each.front(); })) return each.front();
  std::string list;
  for (const std::string& c : each) list += (list.empty() ? "" : ",") + c;
  return list;
}

}  // namespace

double AccountingService::now(Runtime& rt) const { return rt.clock().on() ? rt.clock().now() : now_s(); }

// A rank whose virtual clock falls back to the wall clock (threads calling
// MPI at once) changes clocks between two reads: the interval across is
// meaningless, and is taken as 0 rather than written negative.
double AccountingService::since(double start, double t) { return std::max(0.0, t - start); }

void AccountingService::on_start(Runtime& rt) {
  const Settings& s = rt.settings();
  // Nothing else counts calls with capture off: the run's iterations are
  // every k-th call of the function named (a program that does not mark them).
  if (s.capture == CaptureMode::off && !s.accounting_call.empty()) {
    for (int f = 0; f < static_cast<int>(Fn::count_); ++f) {
      if (s.accounting_call == fn_name(static_cast<Fn>(f))) count_boundaries(static_cast<Fn>(f), s.accounting_call_every, 0);
    }
  }
  samples_ = s.accounting_samples;
  // Sampled, nothing is accounted until a loop is counted: the records
  // before are dropped when it is (another boundary), so detection pays
  // no clock reads for them.
  if (samples_ > 0) {
    recording_ = false;
    wake_at_ = INT64_MAX;
  }
  thread_ = std::this_thread::get_id();
  PMPI_Comm_dup(MPI_COMM_WORLD, &comm_);
  virtual_ = rt.clock().on();
  iterations_.reserve(1024);
  queued_.reserve(1024);
  last_ = now(rt);
  iteration_start_ = last_;
  queued_start_ = thread_queued_s();
}

void AccountingService::add_compute(double t) {
  current_.compute_s += since(last_, t);
  last_ = t;
}

void AccountingService::before_call(Runtime& rt, Fn fn, ComputeSection&) {
  if (!on_my_thread() || (!recording_ && !wakes(rt, false))) return;
  const double t = now(rt);
  add_compute(t);
  if (fn == Fn::count_) return;  // a mark or MPI_Wtime ends a compute section, not a call
  in_call_ = true;
  call_start_ = t;
  call_term_ = term_of(fn);
}

// A wait that completes a non-blocking MPI-IO request (a prefetch) waits
// for the disk: I/O, as the model's prefetch stall (Eq 2) is.
std::optional<int> AccountingService::run_blocking(Runtime& rt, const BlockingCall& call) {
  if (!on_my_thread() || !in_call_ || call_term_ != Term::wait || call.info.requests == nullptr) return std::nullopt;
  std::lock_guard lock(rt.mutex());
  for (int i = 0; i < call.info.nreq; ++i) {
    const PendingRequest* p = rt.requests().oldest(call.info.requests[i]);
    if (p != nullptr && (p->kind == PendingRequest::Kind::file || p->kind == PendingRequest::Kind::prefetch)) {
      call_term_ = Term::io;
      break;
    }
  }
  return std::nullopt;
}

void AccountingService::after_call(Runtime& rt, Fn, const CallInfo&, int) {
  if (!on_my_thread() || !in_call_) return;
  in_call_ = false;
  const double t = now(rt);
  const double seconds = since(call_start_, t);
  switch (call_term_) {
    case Term::io:
      current_.io_s += seconds;
      break;
    case Term::comm:
      current_.comm_s += seconds;
      break;
    case Term::wait:
      current_.wait_s += seconds;
      break;
  }
  last_ = t;
  // The k-th call of the function that ends an iteration (counted by the
  // wrappers before the call): the iteration ends with it.
  if (boundary_ == Boundary::mark || boundary_ == Boundary::pcontrol) return;
  const std::int64_t counted = boundaries_counted();
  if (counted == counted_) return;
  counted_ = counted;
  // Records of another loop's boundary are not this loop's iterations: as
  // when another source wins, they are dropped and the iteration so far
  // is the first.
  if (boundary_generation() != generation_) {
    generation_ = boundary_generation();
    drop_records();
    skipped_ = counted;
    every_ = 1;
  }
  end_iteration(rt, t, Boundary::call, counted);
  sample_next(rt, counted);
}

// A call, mark or MPI_Pcontrol of a sampled run between two samples
// (another service keeps the wrappers engaged, or this is the one the
// boundary counter engaged them for): the sample starts at the call or
// mark that ends the iteration before it; at once when another loop is
// counted now, whose records start afresh, or when the program's own
// boundary (`at_program_boundary`: a mark, MPI_Pcontrol) takes over from
// counted calls.
bool AccountingService::wakes(Runtime& rt, bool at_program_boundary) {
  const bool due = boundary_ == Boundary::mark
                       ? at_program_boundary && marks_counted() - 1 >= wake_at_
                       : at_program_boundary || boundaries_counted() >= wake_at_ ||
                             boundary_generation() != generation_;
  if (!due) return false;
  const double t = now(rt);
  recording_ = true;
  wake_at_ = -1;
  if (boundary_ != Boundary::mark) wake_at_iteration(-1);  // woken: none is pending
  current_ = {};
  last_ = t;
  iteration_start_ = t;
  queued_start_ = thread_queued_s();
  return true;
}

// One record in kThinning after the first, once kThinning x N are kept:
// the multiples of kThinning times the stride stay. An odd prime, not 2:
// a loop whose captured iteration is half a step (a sweep, then a copy,
// between two alike barriers) costs two different times in turn, and a
// stride that doubles kept only the sweeps (predicted 19-57 % long at 2
// ranks); 5 divides no period of 2, 3, 4 or 6 (red and black, three
// directions, a tighter solve every 4th step).
void AccountingService::thin() {
  if (std::ssize(iterations_) < kThinning * samples_ + 1) return;
  std::size_t kept = 1;
  for (std::size_t k = 1; k < iterations_.size(); ++k) {
    if (model::recorded_iteration(skipped_, every_, k) % (kThinning * every_) != 0) continue;
    iterations_[kept] = iterations_[k];
    queued_[kept] = queued_[k];
    ++kept;
  }
  iterations_.resize(kept);
  queued_.resize(kept);
  every_ *= kThinning;
}

// After the iteration that ended at `counted`: thin the records, and unless
// the next iteration is a sample, stop accounting until the call or mark
// that starts the next one (the mark ending iteration i is the (i + 1)-th).
void AccountingService::sample_next(Runtime& rt, std::int64_t counted) {
  if (!sampling()) return;
  thin();
  if (is_sample(counted + 1)) return;
  wake_at_ = (counted / every_ + 1) * every_ - 1;
  recording_ = false;
  if (boundary_ == Boundary::mark) {
    wake_at_mark(wake_at_ + 1);
  } else {
    wake_at_iteration(wake_at_);
  }
  rt.refresh();
}

void AccountingService::on_program_mark(Runtime& rt) {
  if (!on_my_thread()) return;
  // The compute up to the mark (the capture service moved the clock already).
  if (rt.settings().capture == CaptureMode::off) {
    rt.enter();
    rt.leave();
  }
  if (!recording_ && !wakes(rt, true)) return;
  const double t = now(rt);
  add_compute(t);
  // The mark that ends the run's iteration i is its (i + 1)-th.
  const std::int64_t iteration = marks_counted() - 1;
  end_iteration(rt, t, Boundary::mark, iteration);
  sample_next(rt, iteration);
}

void AccountingService::on_pcontrol(Runtime& rt, int level) {
  if (!on_my_thread() || level <= 0 || boundary_ == Boundary::mark) return;
  if (rt.settings().capture != CaptureMode::pcontrol) {
    rt.enter();
    rt.leave();
  }
  if (!recording_ && !wakes(rt, true)) return;
  const double t = now(rt);
  add_compute(t);
  end_iteration(rt, t, Boundary::pcontrol, 0);
}

// The program's marks win over MPI_Pcontrol, which wins over counted calls
// (as the run's iteration count does, lifecycle.cpp): records of a source
// that gives way are dropped, and the iteration so far is its first.
void AccountingService::end_iteration(Runtime& rt, double t, Boundary source, std::int64_t iteration) {
  if (source != boundary_ && boundary_ != Boundary::none) drop_records();
  if (source != boundary_ && source != Boundary::call) {  // counted calls set their own when their loop changes
    skipped_ = 0;
    every_ = 1;
    wake_at_iteration(-1);
  }
  boundary_ = source;
  const bool keep = !sampling() || is_sample(iteration);
  virtual_ = virtual_ && rt.clock().on();
  current_.total_s = since(iteration_start_, t);
  const double queued = thread_queued_s();
  if (keep) {
    iterations_.push_back(current_);
    queued_.push_back(std::max(0.0, queued - queued_start_));
  }
  current_ = {};
  iteration_start_ = t;
  queued_start_ = queued;
}

// The run's count settled at its end with the same function and stride
// moved by `shift` iterations (a loop whose length varies, counted from
// the loop's own count during the run and over every call of the run at
// its end: md_displacement_check): the records were cut at the same calls
// and are numbered as the run's iterations now are. A sampled run's by a
// multiple of its stride, so that its records stay the multiples of it:
// up to a stride from the run's numbers.
void AccountingService::renumber(std::int64_t shift) {
  skipped_ = std::max<std::int64_t>(0, skipped_ + shift / every_ * every_);
}

void AccountingService::drop_records() {
  iterations_.clear();
  queued_.clear();
}

// Collective at MPI_Finalize: rank 0 gathers every rank's records and
// writes them. A failure is said once and never stops the program.
void AccountingService::on_finish(Runtime& rt) {
  if (comm_ == MPI_COMM_NULL) return;
  constexpr int kTerms = model::IterationTerms::kCount;
  constexpr int kFields = kTerms + 1;  // the terms, then the run-queue delay
  const bool queued_known = thread_queued_s_known();
  const int rank = rt.world_rank();
  const int size = rt.world_size();
  const int mine = static_cast<int>(iterations_.size()) * kFields;
  std::vector<double> flat;
  flat.reserve(static_cast<std::size_t>(mine));
  for (std::size_t k = 0; k < iterations_.size(); ++k) {
    for (double v : iterations_[k].values()) flat.push_back(v);
    flat.push_back(queued_known ? queued_[k] : -1);  // -1: this rank's kernel does not say
  }
  std::vector<int> counts(rank == 0 ? static_cast<std::size_t>(size) : 0);
  PMPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm_);
  std::vector<int> offsets(counts.size());
  int total = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    offsets[r] = total;
    total += counts[r];
  }
  std::vector<double> all(static_cast<std::size_t>(total));
  PMPI_Gatherv(flat.data(), mine, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE, 0, comm_);
  // Each rank's boundary call: ranks of one loop may end their iterations
  // at different calls (a boundary rank of a grid sends fewer messages).
  const int counted = g_boundary_fn.load(std::memory_order_relaxed);
  // With it, how many of the run's iterations its records skip.
  const bool by_call = boundary_ == Boundary::call;
  if (by_call && boundary_generation() == generation_) renumber(boundaries_renumbered());
  // And the stride of its sampled records.
  const std::array<std::int64_t, 4> my_call = {by_call ? counted : -1, boundary_every(), by_call ? skipped_ : 0,
                                               every_};
  std::vector<std::int64_t> calls(rank == 0 ? 4 * static_cast<std::size_t>(size) : 0);
  PMPI_Gather(my_call.data(), 4, MPI_INT64_T, calls.data(), 4, MPI_INT64_T, 0, comm_);
  int virtual_everywhere = virtual_ ? 1 : 0;
  PMPI_Allreduce(MPI_IN_PLACE, &virtual_everywhere, 1, MPI_INT, MPI_MIN, comm_);
  PMPI_Comm_free(&comm_);
  if (rank != 0) return;
  model::Accounting accounting;
  accounting.clock = virtual_everywhere ? "virtual" : "wall";
  accounting.boundary = boundary_name(static_cast<int>(boundary_));
  if (boundary_ == Boundary::call) accounting.call = call_list(calls);
  for (std::size_t r = 0; r < counts.size(); ++r) {
    std::vector<model::IterationTerms>& records = accounting.ranks.emplace_back();
    std::vector<double>& queued = accounting.queued.emplace_back();
    for (int k = 0; k < counts[r]; k += kFields) {
      const auto field = [&](int f) { return all[static_cast<std::size_t>(offsets[r] + k + f)]; };
      std::array<double, kTerms> v{};
      for (int f = 0; f < kTerms; ++f) v[static_cast<std::size_t>(f)] = field(f);
      records.push_back(model::IterationTerms::from(v));
      queued.push_back(field(kTerms));
    }
    if (std::any_of(queued.begin(), queued.end(), [](double q) { return q < 0; })) queued.clear();
    accounting.skipped.push_back(calls[4 * r + 2]);
    accounting.every.push_back(calls[4 * r + 3]);
  }
  try {
    model::write_accounting(rt.settings().accounting_path, accounting);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "mheta interpose: accounting not written: %s\n", error.what());
  }
}

}  // namespace mheta::interpose
