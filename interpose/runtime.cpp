#include "interpose/runtime.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>

#include "interpose/clock.hpp"
#include "interpose/engaged.hpp"
#include "interpose/services.hpp"

namespace mheta::interpose {

std::atomic<bool> g_engaged{false};
thread_local int ReentryGuard::depth_ = 0;

namespace {
// This thread's CPU time when it last left an intercepted call (< 0: it has
// not yet called one). Read only when a service measures compute in CPU time.
thread_local double t_exit_cpu = -1;
// What reading the CPU clock adds to every section (clock.hpp), measured
// once at MPI_Init: a program's call-to-call CPU time less it is its own.
// Left in, it made each intercepted call cost ~0.5 us of virtual compute
// (times the rank's CPU factor) where the program's own cost is ~30 ns.
double cpu_read_cost = 0;

// This thread's preemptions when it last left an intercepted call, read
// only when a service counts them (Runtime::measures_preemptions()).
thread_local long preemptions_at_exit = -1;

double cpu_since_leave() {
  return t_exit_cpu < 0 ? 0 : std::max(thread_cpu_s() - t_exit_cpu - cpu_read_cost, 0.0);
}
}  // namespace

Runtime& Runtime::get() {
  static Runtime* runtime = new Runtime;  // never destroyed: wrappers may run during exit
  return *runtime;
}

void Runtime::refresh() {
  bool follow = phase_ != Phase::done;
  bool engage = follow;
  for (const auto& s : services_) {
    follow = follow || s->follows_calls(*this);
    engage = engage || s->keeps_engaged(*this);
  }
  following_ = follow;
  g_engaged.store(engage || follow, std::memory_order_relaxed);
}

void Runtime::start(int thread_level) {
  thread_level_ = thread_level;
  init_thread_ = std::this_thread::get_id();
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  PMPI_Comm_size(MPI_COMM_WORLD, &size_);
  static VirtualClockService off;  // the wall clock's: never started
  clock_ = &off;
  // A process started by MPI_Comm_spawn(_multiple) is of another
  // MPI_COMM_WORLD than the run's, which the profile, the emulation and the
  // virtual clock describe: it runs unwatched (its rank 0 says so), and
  // writes no profile of its own over the run's.
  MPI_Comm parent = MPI_COMM_NULL;
  PMPI_Comm_get_parent(&parent);
  if (parent != MPI_COMM_NULL) {
    if (rank_ == 0) {
      std::fprintf(stderr,
                   "mheta interpose: processes started by MPI_Comm_spawn run unwatched: not emulated, no virtual "
                   "clock (their MPI_Wtime is the wall clock), not captured, not accounted\n");
    }
    return;
  }
  watching_ = true;
  settings_ = read_settings(rank_);
  services_ = make_services(settings_);
  for (const auto& s : services_) {
    if (auto* clock = dynamic_cast<VirtualClockService*>(s.get())) clock_ = clock;
  }
  if (settings_.capture != CaptureMode::off) {
    PMPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    phase_ = Phase::waiting;
  }
  for (const auto& s : services_) measures_cpu_ = measures_cpu_ || s->measures_cpu();
  for (const auto& s : services_) measures_preemptions_ = measures_preemptions_ || s->measures_preemptions();
  if (measures_cpu_) cpu_read_cost = thread_cpu_read_cost_s();
  leave();
  for (const auto& s : services_) s->on_start(*this);
  for (const auto& s : services_) file_io_factor_ *= s->file_io_factor();
  for (const auto& s : services_) compute_factor_ *= s->compute_factor();
  refresh();
}

double Runtime::enter(Fn fn) {
  double t = now_s();
  ComputeSection section;
  section.wall_s = t - last_exit_;
  section.seconds = section.wall_s;
  if (measures_cpu_) section.cpu_s = cpu_since_leave();
  // Read after the CPU time, as at leave() before it, so that counting is no
  // part of the section.
  if (measures_preemptions_) section.preemptions = preemptions_since_leave();
  // A capture a service begins at this call begins after its compute; one
  // it ends here took it itself (loop_capture.hpp).
  const bool was_capturing = capturing();
  for (const auto& s : services_) s->before_call(*this, fn, section);
  if (measures_cpu_) t = now_s();  // after the emulated compute was slept
  last_entry_ = t;
  if (was_capturing && capturing()) {
    std::lock_guard lock(mutex_);
    timeline_.add_compute(section.seconds);
  }
  return t;
}

NotCompute::NotCompute() {
  // Inside an intercepted call (MPI's own yields while it waits) nothing is
  // compute anyway, and the readings would only slow its polling.
  if (t_exit_cpu >= 0 && !ReentryGuard::inside()) cpu_at_start_ = thread_cpu_s();
}

NotCompute::~NotCompute() {
  // The section's start moves past the call, by its processor time and the
  // two clock readings that measured it. The call's errno is the program's.
  if (cpu_at_start_ < 0 || t_exit_cpu < 0) return;
  const int call_errno = errno;
  t_exit_cpu += thread_cpu_s() - cpu_at_start_ + cpu_read_cost;
  errno = call_errno;
}

void Runtime::leave() {
  last_exit_ = now_s();
  if (measures_preemptions_) preemptions_at_exit = thread_preemptions();
  if (measures_cpu_) t_exit_cpu = thread_cpu_s();
}

long Runtime::preemptions_since_leave() {
  const long now = thread_preemptions();
  return now < 0 || preemptions_at_exit < 0 ? -1 : now - preemptions_at_exit;
}

double Runtime::compute_since_leave() {
  ComputeSection section;
  section.wall_s = now_s() - last_exit_;
  section.seconds = section.wall_s;
  if (measures_cpu_) {
    section.cpu_s = cpu_since_leave();
    for (const auto& s : services_) s->value_compute(*this, section);
  }
  return section.seconds;
}

void Runtime::capture_near() {
  for (const auto& s : services_) s->on_capture_near(*this);
}

void Runtime::begin_capture() {
  timeline_ = Timeline{};
  files_.begin_capture();
  phase_ = Phase::capturing;
  for (const auto& s : services_) s->on_capture_begin(*this);
  leave();
  refresh();
}

void Runtime::keep_timeline(double compute_s, bool again, std::size_t periods) {
  timeline_.add_compute(compute_s);
  if (!again) captured_periods_.clear();
  while (!captured_periods_.empty() && captured_periods_.size() >= periods) {
    captured_periods_.erase(captured_periods_.begin());
  }
  captured_periods_.push_back(std::move(timeline_));
  captured_timeline_ = Timeline::median_of(captured_periods_);
  timeline_ = Timeline{};
  captured_variables_ = files_.variables();
  captured_ = true;
}

void Runtime::end_capture(bool collective_point) {
  keep_timeline(compute_since_leave());
  phase_ = Phase::done;
  refresh();
  for (const auto& s : services_) s->on_capture_end(*this, collective_point);
}

void Runtime::keep_capture(double compute_s, bool again, std::size_t periods) {
  keep_timeline(compute_s, again, periods);
  phase_ = Phase::waiting;
  for (const auto& s : services_) s->on_capture_end(*this, false);
}

void Runtime::stop_capturing() {
  phase_ = Phase::done;
  refresh();
}

void Runtime::drop_capture() {
  phase_ = Phase::waiting;
  timeline_ = Timeline{};
  files_.begin_capture();
  refresh();
}

void Runtime::restart_waiting() {
  drop_capture();
  captured_ = false;
  captured_timeline_ = Timeline{};
  captured_periods_.clear();
}

// Written and accessed in the captured iteration: a later capture, dropped
// or still going, may have changed them since.
std::vector<VariableSeen> Runtime::captured_variables() const {
  std::vector<VariableSeen> variables = files_.variables();
  for (std::size_t v = 0; v < variables.size(); ++v) {
    const bool kept = v < captured_variables_.size();
    variables[v].written = kept && captured_variables_[v].written;
    variables[v].accessed = kept ? captured_variables_[v].accessed : FileExtent{};
  }
  return variables;
}

void Runtime::finish() {
  finished_ = true;
  for (const auto& s : services_) s->on_run_end(*this);
  for (const auto& s : services_) s->on_finish(*this);
  if (comm_ != MPI_COMM_NULL) PMPI_Comm_free(&comm_);
  phase_ = Phase::done;
  g_engaged.store(false, std::memory_order_relaxed);
}

std::optional<int> Runtime::run_blocking(const BlockingCall& call) {
  for (const auto& s : services_) {
    if (const auto rc = s->run_blocking(*this, call)) return rc;
  }
  return std::nullopt;
}

void Runtime::before_passive_target_sync(MPI_Win win, int rank, bool every_rank) {
  for (const auto& s : services_) s->before_passive_target_sync(*this, win, rank, every_rank);
}

void Runtime::after_call(Fn fn, const CallInfo& call, int rc) {
  for (const auto& s : services_) s->after_call(*this, fn, call, rc);
  // The handler left the call right after MPI returned, and then did its
  // own bookkeeping (the message recorded, the detector fed). On the wall
  // clock that is no compute of the program, which runs without it when
  // measured: a captured iteration's compute starts here. Under the virtual
  // clock it stays in: every measured iteration pays it as compute too.
  if (capturing() && !clock_->on()) last_exit_ = now_s();
}

void Runtime::message(const MessageEvent& event) {
  for (const auto& s : services_) s->on_message(*this, event);
}

void Runtime::collective(const CollectiveEvent& event) {
  for (const auto& s : services_) s->on_collective(*this, event);
}

void Runtime::file_io(const FileIoEvent& event) {
  for (const auto& s : services_) s->on_file_io(*this, event);
}

void Runtime::call_seen(const CallSeen& event) {
  for (const auto& s : services_) s->on_call(*this, event);
}

double Runtime::time_file_io(double io_s, double wall_s, DiskOp op, std::int64_t bytes) {
  FileTiming timing{.io_s = io_s, .wall_s = wall_s, .seconds = wall_s, .op = op, .bytes = bytes};
  for (const auto& s : services_) s->time_file_io(*this, timing);
  return timing.seconds;
}

std::optional<DiskTurn> Runtime::disk_request(DiskOp op, std::int64_t bytes, double issued_at) {
  for (const auto& s : services_) {
    if (std::optional<DiskTurn> turn = s->disk_request(*this, op, bytes, issued_at)) return turn;
  }
  return std::nullopt;
}

double Runtime::wtime(double seconds) {
  for (const auto& s : services_) s->on_wtime(*this, seconds);
  return seconds;
}

void Runtime::program_mark() {
  for (const auto& s : services_) s->on_program_mark(*this);
}

void Runtime::pcontrol(int level) {
  for (const auto& s : services_) s->on_pcontrol(*this, level);
}

}  // namespace mheta::interpose
