#include "interpose/runtime.hpp"

#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string_view>

#include "include/mheta/hints.h"
#include "interpose/boundary_counter.hpp"
#include "interpose/clock.hpp"
#include "interpose/engaged.hpp"
#include "interpose/profile_output.hpp"

namespace mheta::interpose {

std::atomic<bool> g_engaged{false};
thread_local int ReentryGuard::depth_ = 0;

namespace {

// Automatic detection agrees on an iteration at every kAgreeEvery-th
// collective over all ranks: every rank reaches the k-th collective, so all
// join the agreement there and none can wait for another (docs/interpose.md).
constexpr std::int64_t kAgreeEvery = 4;

std::int64_t info_integer(MPI_Info info, const char* key) {
  if (info == MPI_INFO_NULL) return -1;
  char value[64] = {};
  int flag = 0;
  PMPI_Info_get(info, key, static_cast<int>(sizeof value) - 1, value, &flag);
  if (!flag) return -1;
  char* end = nullptr;
  const long long v = std::strtoll(value, &end, 10);
  return end != value && *end == '\0' && v >= 0 ? static_cast<std::int64_t>(v) : -1;
}

// Ranks sharing this node over the cores this process may run on: with
// more ranks than cores, a CPU factor of at least this much leaves each rank
// the CPU its emulated compute needs (docs/emulation.md). A collective over
// MPI_COMM_WORLD, called from MPI_Init's wrapper on every rank.
double automatic_dilation() {
  MPI_Comm node = MPI_COMM_NULL;
  int ranks = 1;
  if (PMPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
    PMPI_Comm_size(node, &ranks);
    PMPI_Comm_free(&node);
  }
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  const int cores = sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
  return std::max(1.0, static_cast<double>(ranks) / std::max(1, cores));
}

}  // namespace

Runtime& Runtime::get() {
  static Runtime* runtime = new Runtime;  // never destroyed: wrappers may run during exit
  return *runtime;
}

void Runtime::set_engaged() {
  const bool on = following() || emulator_.active() || settings_.wait == WaitMode::sleep;
  g_engaged.store(on, std::memory_order_relaxed);
}

void Runtime::start(int thread_level) {
  thread_level_ = thread_level;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  PMPI_Comm_size(MPI_COMM_WORLD, &size_);
  settings_ = read_settings(rank_);
  if (settings_.clock == ClockMode::virtual_time) {
    // Virtual time needs no dilation: CPU time does not grow with
    // oversubscription, and nothing is slept. Without an emulation every
    // factor is 1 and the network is the machine's.
    const RankEmulation mine = settings_.emulation ? settings_.emulation->for_rank(rank_, size_) : RankEmulation{};
    emulator_.configure(mine, 1);
    VirtualClockService::Network network;
    if (settings_.emulation && settings_.emulation->network) {
      network = [net = *settings_.emulation->network, size = size_](int from, int to) {
        return net.link(from, to, size);
      };
    }
    clock_.start(mine, std::move(network), settings_.wait == WaitMode::sleep);
  } else if (settings_.emulation) {
    emulator_.configure(settings_.emulation->for_rank(rank_, size_),
                        settings_.emulation->dilation.value_or(automatic_dilation()));
  }
  mode_ = settings_.capture;
  if (mode_ != CaptureMode::off) {
    PMPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    phase_ = Phase::waiting;
  }
  agreement_done_ = mode_ != CaptureMode::automatic;
  if (mode_ == CaptureMode::call) {
    // The run's iterations: every call_every-th call of it (boundary_counter.hpp).
    for (int f = 0; f < static_cast<int>(Fn::count_); ++f) {
      const Fn named = static_cast<Fn>(f);
      if (settings_.call_name == fn_name(named)) count_boundaries(named, settings_.call_every, 0);
    }
  }
  leave();
  set_engaged();
  const bool from_start = mode_ == CaptureMode::mark || mode_ == CaptureMode::call || mode_ == CaptureMode::automatic;
  // Automatic detection cannot tell in advance which iteration it captures.
  if (from_start && (mode_ == CaptureMode::automatic || settings_.capture_iteration <= 2)) force_out_of_core();
  if (settings_.capture_iteration == 1 && from_start && mode_ != CaptureMode::automatic) begin_capture();
}

// io/ sizes its ICLAs out of core while MHETA_FORCE_OOC is set, from the
// iteration before the captured one: a rank that would be in core writes its
// arrays out (and allocates its buffers) in that iteration, so the captured
// one is a steady out-of-core iteration and holds none of that one-off cost
// (it once gave in-core ranks of jacobi --prefetch 20 ms of extra CPU).
// "capture", not "1": io/ plans the run as usual and follows the variable
// at each iteration (io/memory_budget.hpp). A user's MHETA_FORCE_OOC=1
// (the whole run) is left alone.
void Runtime::force_out_of_core() {
  const char* now = std::getenv("MHETA_FORCE_OOC");
  if (now == nullptr || std::string_view(now) != "1") setenv("MHETA_FORCE_OOC", "capture", 1);
}

void Runtime::release_out_of_core() {
  const char* now = std::getenv("MHETA_FORCE_OOC");
  if (now != nullptr && std::string_view(now) == "capture") unsetenv("MHETA_FORCE_OOC");
}

namespace {
// This thread's CPU time when it last left an intercepted call (< 0: it has
// not yet called one).
thread_local double t_exit_cpu = -1;
}  // namespace

double Runtime::enter() {
  double t = now_s();
  double compute = t - last_exit_;
  if (clock_.on()) {
    // Virtual time: the section counts its CPU time times the CPU factor,
    // and lasts no longer than it did.
    compute = clock_.compute(t_exit_cpu < 0 ? 0 : thread_cpu_s() - t_exit_cpu);
  } else if (emulator_.active()) {
    // Emulated: the section lasts, and counts, its dilated CPU time.
    const double cpu = t_exit_cpu < 0 ? 0 : thread_cpu_s() - t_exit_cpu;
    compute = emulator_.stretch_compute(cpu, compute);
    t = now_s();
  }
  if (phase_ == Phase::capturing) {
    std::lock_guard lock(mutex_);
    timeline_.add_compute(compute);
  }
  return t;
}

void Runtime::leave() {
  last_exit_ = now_s();
  if (emulator_.active()) t_exit_cpu = thread_cpu_s();
}

double Runtime::compute_since_leave() const {
  if (!emulator_.active()) return now_s() - last_exit_;
  return emulator_.emulated_compute(t_exit_cpu < 0 ? 0 : thread_cpu_s() - t_exit_cpu);
}

int Runtime::variable_of(MPI_File fh) const {
  const auto it = files_.find(fh);
  return it == files_.end() ? -1 : it->second;
}

void Runtime::open_file(MPI_File fh, const char* filename, MPI_Info info) {
  VariableSeen v;
  if (info != MPI_INFO_NULL) {
    char name[256] = {};
    int flag = 0;
    PMPI_Info_get(info, MHETA_HINT_VARIABLE, static_cast<int>(sizeof name) - 1, name, &flag);
    if (flag && name[0] != '\0') {
      v.name = name;
      v.hinted = true;
    }
  }
  if (v.name.empty()) v.name = variable_name_from_path(filename != nullptr ? filename : "?", rank_);
  v.bytes_per_row = std::max<std::int64_t>(0, info_integer(info, MHETA_HINT_BYTES_PER_ROW));
  v.global_rows = std::max<std::int64_t>(0, info_integer(info, MHETA_HINT_GLOBAL_ROWS));
  v.local_rows = info_integer(info, MHETA_HINT_LOCAL_ROWS);
  MPI_Offset size = 0;
  if (PMPI_File_get_size(fh, &size) == MPI_SUCCESS) v.file_bytes = size;
  std::lock_guard lock(mutex_);
  int index = -1;
  for (std::size_t i = 0; i < variables_.size(); ++i) {
    if (variables_[i].name == v.name) index = static_cast<int>(i);
  }
  if (index < 0) {
    index = static_cast<int>(variables_.size());
    variables_.push_back(v);
  } else {
    VariableSeen& known = variables_[static_cast<std::size_t>(index)];
    known.file_bytes = std::max(known.file_bytes, v.file_bytes);
    if (v.bytes_per_row > 0) known.bytes_per_row = v.bytes_per_row;
    if (v.global_rows > 0) known.global_rows = v.global_rows;
    if (v.local_rows >= 0) known.local_rows = v.local_rows;
  }
  files_[fh] = index;
}

void Runtime::close_file(MPI_File fh) {
  std::lock_guard lock(mutex_);
  files_.erase(fh);
}

void Runtime::note_write(int variable) {
  if (variable >= 0) variables_[static_cast<std::size_t>(variable)].written = true;
}

void Runtime::add_to_last_write(int variable, double seconds) {
  const auto it = last_write_.find(variable);
  if (it != last_write_.end()) timeline_.add_io_seconds(it->second, true, seconds);
}

int Runtime::world_rank_of(MPI_Comm comm, int peer) const {
  if (comm == MPI_COMM_WORLD || peer < 0) return peer;
  MPI_Group group = MPI_GROUP_NULL;
  MPI_Group world = MPI_GROUP_NULL;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int out = MPI_UNDEFINED;
  PMPI_Group_translate_ranks(group, 1, &peer, world, &out);
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return out;
}

bool Runtime::between_ranks(MPI_Comm comm) const {
  if (comm == MPI_COMM_NULL || comm == MPI_COMM_SELF) return false;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) return false;
  int size = 1;
  PMPI_Comm_size(comm, &size);
  return size > 1;
}

bool Runtime::over_all_ranks(MPI_Comm comm) const {
  if (comm == MPI_COMM_WORLD) return size_ > 1;
  if (!between_ranks(comm)) return false;
  int size = 1;
  PMPI_Comm_size(comm, &size);
  return size == size_;
}

void Runtime::begin_capture() {
  timeline_ = Timeline{};
  last_write_.clear();
  phase_ = Phase::capturing;
  force_out_of_core();  // already, in most modes (force_out_of_core)
  leave();
}

void Runtime::end_capture(bool collective_point) {
  timeline_.add_compute(compute_since_leave());
  release_out_of_core();
  phase_ = Phase::done;
  captured_ = true;
  capture_virtual_ = clock_.on();
  set_engaged();
  if (collective_point) write_profile_collectively();
}

void Runtime::write_profile_collectively() {
  if (written_ || comm_ == MPI_COMM_NULL) return;
  written_ = true;
  RankRecord record;
  record.rank = rank_;
  record.complete = captured_;
  record.sections = timeline_.sections();
  record.variables = variables_;
  record.iterations = boundaries_;
  record.virtual_clock = captured_ ? capture_virtual_ : clock_.on();
  gather_and_write_profile(comm_, record, settings_);
  leave();  // waiting for the other ranks and writing is no compute of the program
}

void Runtime::finish() {
  if (comm_ != MPI_COMM_NULL) {
    if (!written_) write_profile_collectively();
    PMPI_Comm_free(&comm_);
  }
  clock_.finish();
  phase_ = Phase::done;
  g_engaged.store(false, std::memory_order_relaxed);
}

// The detector goes no further than the capture; the wrappers count the
// run's iterations from here on, with one compare a call (boundary_counter.hpp).
void Runtime::count_detected_boundaries(int period) {
  const PeriodDetector::Boundary b = detector_.boundary(period);
  if (b.per_period > 0) count_boundaries(static_cast<Fn>(b.kind), b.per_period, b.seen);
}

// Every rank joins every agreement until one concludes, whatever its own
// state: a rank that follows marks now, or captured on its own, asks all to
// stop detecting, so no rank is ever left waiting in an agreement.
void Runtime::auto_agreement() {
  const bool detecting = mode_ == CaptureMode::automatic && phase_ == Phase::waiting;
  const int period = detecting ? detector_.period() : 0;
  const int local = period > 0 ? detector_.collectives_in_period(period) : 0;
  int mine[3] = {local, -local, detecting ? 0 : 1};
  int all[3] = {0, 0, 0};
  PMPI_Allreduce(mine, all, 3, MPI_INT, MPI_MAX, comm_);
  leave();  // the agreement's time (it waits for every rank) is no compute of the program
  const int most = all[0];
  const int least = -all[1];
  if (all[2] > 0) {
    agreement_done_ = true;
    set_engaged();
  } else if (least > 0 && most == least) {
    agreement_done_ = true;
    capture_end_collective_ = collectives_ + most;
    end_is_collective_ = true;
    count_detected_boundaries(period);
    begin_capture();
  }
}

void Runtime::observe(Fn fn, std::uint64_t signature, bool collective_over_all, bool message) {
  if (!following()) return;
  if (collective_over_all) ++collectives_;
  const bool detecting = mode_ == CaptureMode::automatic && phase_ != Phase::done;
  if (detecting) {
    detector_.observe(signature, collective_over_all, static_cast<int>(fn));
    if (message) last_message_call_ = detector_.calls();
  }
  if (agreement_pending() && collective_over_all && collectives_ % kAgreeEvery == 0) {
    const bool was_waiting = phase_ == Phase::waiting;
    auto_agreement();
    if (was_waiting && phase_ == Phase::capturing) return;  // the capture starts after this collective
  }
  if (phase_ == Phase::done) return;
  if (mode_ == CaptureMode::automatic) {
    if (phase_ == Phase::waiting) {
      if (!collective_over_all && collectives_ == 0 && detector_.period() > 0) {
        // No collective at all so far: each rank captures one period of its
        // own calls and the profile is written at MPI_Finalize. The period
        // must exchange messages: a setup loop writing files is no iteration.
        const int period = detector_.period();
        if (last_message_call_ > detector_.calls() - period) {
          capture_end_call_ = detector_.calls() + period;
          end_is_collective_ = false;
          count_detected_boundaries(period);
          begin_capture();
        }
      }
    } else if (end_is_collective_ ? collectives_ == capture_end_collective_
                                  : capture_end_call_ >= 0 && detector_.calls() == capture_end_call_) {
      end_capture(end_is_collective_);
    }
    return;
  }
  if (mode_ == CaptureMode::call && settings_.call_name == fn_name(fn)) {
    ++named_calls_;
    if (named_calls_ % settings_.call_every != 0) return;
    ++boundaries_;
    if (boundaries_ == settings_.capture_iteration - 2) force_out_of_core();
    if (boundaries_ == settings_.capture_iteration - 1 && phase_ == Phase::waiting) {
      begin_capture();
    } else if (boundaries_ == settings_.capture_iteration && phase_ == Phase::capturing) {
      end_capture(collective_over_all);
    }
  }
}

void Runtime::mark_iteration() {
  // The compute up to the mark belongs to the iteration it ends.
  enter();
  leave();
  std::lock_guard lock(mutex_);
  if (phase_ == Phase::done) {
    ++boundaries_;
    return;
  }
  if (mode_ == CaptureMode::automatic) {
    // The program marks its iterations: trust the marks over detection, and
    // drop a capture detection started (the marks count from this one).
    mode_ = CaptureMode::mark;
    phase_ = Phase::waiting;
    timeline_ = Timeline{};
    last_write_.clear();
  }
  if (mode_ != CaptureMode::mark) return;
  ++boundaries_;
  if (boundaries_ == settings_.capture_iteration - 2) force_out_of_core();
  if (boundaries_ == settings_.capture_iteration - 1 && phase_ == Phase::waiting) {
    begin_capture();
  } else if (boundaries_ == settings_.capture_iteration && phase_ == Phase::capturing) {
    // Every rank marks the end of the iteration (the program's contract), so
    // the profile is gathered here, where io/ can use it right away.
    end_capture(true);
  }
}

void Runtime::pcontrol(int level) {
  if (mode_ != CaptureMode::pcontrol) return;
  enter();
  leave();
  std::lock_guard lock(mutex_);
  if (level > 0 && phase_ == Phase::waiting) {
    begin_capture();
  } else if (level == 0 && phase_ == Phase::capturing) {
    end_capture(true);
  }
}

}  // namespace mheta::interpose
