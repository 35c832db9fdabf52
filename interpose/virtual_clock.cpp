#include "interpose/virtual_clock.hpp"

#include <algorithm>
#include <cstdio>

#include "interpose/network_probe.hpp"
#include "interpose/program_clocks.hpp"
#include "interpose/runtime.hpp"

namespace mheta::interpose {

// Without an emulation every factor is 1 and the network is the machine's.
void VirtualClockService::on_start(Runtime& rt) {
  const Settings& settings = rt.settings();
  const int size = rt.world_size();
  const RankEmulation mine = settings.emulation ? settings.emulation->for_rank(rt.world_rank(), size) : RankEmulation{};
  Network network;
  if (settings.emulation && settings.emulation->network) {
    network = [net = *settings.emulation->network, size](int from, int to) { return net.link(from, to, size); };
  }
  start(mine, std::move(network), settings.wait == WaitMode::sleep,
        settings.emulation ? settings.emulation->disk : std::nullopt);
}

namespace {

// A call that asks whether something is done without waiting for it: a
// polling loop makes one after another.
bool polls(Fn fn) {
  switch (fn) {
    case Fn::Test:
    case Fn::Testall:
    case Fn::Testany:
    case Fn::Testsome:
    case Fn::Iprobe:
    case Fn::Improbe:
    case Fn::Request_get_status:
    case Fn::Win_test:
#if MPI_VERSION >= 4
    case Fn::Parrived:
#endif
      return true;
    default:
      return false;
  }
}

// CPU time between two polls below which the section is the polling loop's
// own, not work: an empty loop of MPI_Test measured 0.04 us a poll here,
// while a slice of work done between polls, such as a thousand rows of an
// interior update, takes a microsecond or more.
constexpr double kPollingLoopCpuS = 0.5e-6;

// Loop's own sections in a row after which the loop is spinning empty: more
// than a program's tests of its requests one by one before it works.
constexpr int kSpinningPolls = 16;

// A poll that returned without finding what it polls for: no request
// completed, no message, no epoch ended.
bool found_nothing(Fn fn, const CallInfo& call, int rc) {
  if (rc != MPI_SUCCESS || !polls(fn)) return false;
  if (call.flag) return *call.flag == 0;
  return call.outcount && *call.outcount == 0;  // MPI_Testsome
}

}  // namespace

// Compute counts its CPU time times the CPU factor, and lasts no longer
// than it did: nothing is slept. A section its thread was preempted in
// counts the CPU time it takes undisturbed (undisturbed_compute.hpp). A
// polling loop's own time between one poll and the next is no compute: its
// number of polls is the machine's wait (how long the sender took to be
// scheduled), not the emulated cluster's, and on a real cluster the polls
// end when the message is there however many were made. In a loop spinning
// empty (kSpinningPolls loop's own sections in a row, and the last poll
// found nothing), one longer section between two polls is an interrupt's,
// or the hypervisor's, time charged to the thread, not work: a program that
// works between its polls does so after every poll or every few (one test
// of each of its requests), or once a poll found something.
void VirtualClockService::before_call(Runtime&, Fn fn, ComputeSection& section) {
  if (!on()) {
    section.seconds = rank_.cpu_factor * std::max(section.cpu_s, 0.0);
    return;
  }
  slept_s_ = 0;
  const auto key = UndisturbedCompute::section(static_cast<std::uint32_t>(earlier_fn_),
                                               static_cast<std::uint32_t>(last_fn_), static_cast<std::uint32_t>(fn));
  const bool between_polls = polls(last_fn_) && polls(fn);
  const bool loop_own = between_polls && section.cpu_s < kPollingLoopCpuS;
  const bool interrupted_spin = between_polls && idle_poll_ && empty_polls_ >= kSpinningPolls;
  empty_polls_ = loop_own ? empty_polls_ + 1 : 0;
  earlier_fn_ = last_fn_;
  last_fn_ = fn;
  section.seconds =
      loop_own || interrupted_spin ? 0 : compute(undisturbed_.charge(key, section.cpu_s, section.preemptions));
}

void VirtualClockService::value_compute(Runtime&, ComputeSection& section) {
  section.seconds = rank_.cpu_factor * std::max(section.cpu_s, 0.0);
}

void VirtualClockService::time_file_io(Runtime&, FileTiming& timing) {
  if (emulates_disk()) {
    const double before = clock_.now();
    clock_.wait_until(disk_->request(before, timing.op, timing.bytes));
    timing.seconds = clock_.now() - before;
    return;
  }
  timing.seconds = on() ? clock_.advance_io(timing.io_s, 0, rank_.io_factor) : rank_.io_factor * timing.io_s;
}

std::optional<DiskTurn> VirtualClockService::disk_request(Runtime&, DiskOp op, std::int64_t bytes, double) {
  if (!emulates_disk()) return std::nullopt;
  const double now = clock_.now();
  const double done_at = disk_->request(now, op, bytes);
  return DiskTurn{.done_at = done_at, .seconds = done_at - now};
}

void VirtualClockService::on_wtime(Runtime& rt, double& seconds) {
  if (!on()) {
    if (carrying_) seconds += fallback_offset_;
    return;
  }
  clock_.advance(slept_s_);  // the sleeps since the last call (slept())
  slept_s_ = 0;
  rt.enter();  // the compute up to the call moves the clock first
  rt.leave();
  seconds = clock_.now();
}

double VirtualClockService::program_time(Runtime& rt) const {
  if (on()) return clock_.now() + rt.compute_since_leave();
  return carrying_ ? PMPI_Wtime() + fallback_offset_ : clock_.now();
}

// The program's clocks go on from the virtual time reached
// (program_clocks.hpp).
void VirtualClockService::on_finish(Runtime& rt) {
  program_clocks().finish(program_time(rt));
  finish();
}

void VirtualClockService::after_call(Runtime& rt, Fn fn, const CallInfo& call, int rc) {
  idle_poll_ = found_nothing(fn, call, rc);
  if (on()) rt.leave();
}

void VirtualClockService::on_capture_end(Runtime&, bool) {
  captured_ = true;
  capture_virtual_ = on();
}

void VirtualClockService::start(const RankEmulation& rank, Network network, bool sleep_wait,
                                std::optional<Disk> disk) {
  rank_ = rank;
  network_ = std::move(network);
  if (disk) disk_.emplace(*disk, rank.io_factor);
  sleep_wait_ = sleep_wait;
  PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank_);
  shadows_.start(sleep_wait);
  if (!network_) measured_ = measure_network(shadows_.shadow(MPI_COMM_WORLD));
  carrying_ = true;
  on_.store(true, std::memory_order_relaxed);
  program_clocks().start(clock_.now());
}

void VirtualClockService::finish() {
  if (!carrying_) return;
  on_.store(false, std::memory_order_relaxed);
  carrying_ = false;
  shadows_.finish();
  // Windows the program did not free before MPI_Finalize.
  for (auto& [win, window] : windows_) {
    window.active.reset();  // its requests are on the window's communicator
    PMPI_Comm_free(&window.group);
  }
  windows_.clear();
}

void VirtualClockService::fall_back() {
  if (!on_.exchange(false)) return;
  fallback_offset_ = clock_.now() - PMPI_Wtime();
  std::fprintf(stderr,
               "mheta interpose (rank %d): threads call MPI concurrently, so the virtual clock cannot order this "
               "rank's events; it runs on the wall clock from here on (MPI_Wtime and the profile's times are wall "
               "times)\n",
               world_rank_);
}

double VirtualClockService::compute(double cpu_s) { return on() ? clock_.advance_compute(cpu_s, rank_.cpu_factor) : 0; }

void VirtualClockService::slept(double seconds) {
  if (on() && seconds > 0) slept_s_ += seconds;
}

void VirtualClockService::wait_until(double t) {
  if (on()) clock_.wait_until(t);
}

Link VirtualClockService::link(MPI_Comm comm, int peer, bool from_peer) const {
  if (!network_) return measured_;
  const std::vector<int>* peers = shadows_.peers(comm);
  const int other = peers != nullptr && peer >= 0 && peer < static_cast<int>(peers->size())
                        ? (*peers)[static_cast<std::size_t>(peer)]
                        : peer;
  return from_peer ? network_(other, world_rank_) : network_(world_rank_, other);
}

// A collective runs at the pace of its slowest pair of members.
// Worked out once per communicator (P^2 links).
Link VirtualClockService::collective_link(MPI_Comm comm) const {
  if (!network_) return measured_;
  {
    std::lock_guard lock(files_mutex_);
    const auto known = collective_links_.find(comm);
    if (known != collective_links_.end()) return known->second;
  }
  const std::vector<int>* members = shadows_.members(comm);
  if (members == nullptr || members->size() < 2) return measured_;
  Link worst = network_((*members)[0], (*members)[1]);
  for (int a : *members) {
    for (int b : *members) {
      if (a != b) worst = slowest(worst, network_(a, b));
    }
  }
  std::lock_guard lock(files_mutex_);
  collective_links_[comm] = worst;
  return worst;
}

double VirtualClockService::send_posted(MPI_Comm comm, int dest, int tag, std::int64_t bytes, bool synchronous) {
  if (!carrying_) return clock_.now();
  double starts = clock_.now();
  if (on() && dest != MPI_PROC_NULL) {
    starts = std::max(starts, wire_free_at_);
    wire_free_at_ = starts + injection_time(link(comm, dest, false), bytes);
  }
  shadows_.post_send_time(comm, dest, tag, {.sent = starts, .synchronous = synchronous ? 1.0 : 0.0});
  return starts;
}

void VirtualClockService::synchronous_send_completed(MPI_Comm comm, int dest, int tag, std::int64_t bytes,
                                                     double started_at) {
  if (!carrying_ || dest == MPI_PROC_NULL) return;
  const std::optional<double> receive_posted = shadows_.take_answer(comm, dest, tag);
  send_completed(comm, dest, bytes, started_at);
  if (!receive_posted || !on()) return;
  clock_.wait_until(*receive_posted + link(comm, dest, true).latency_s);
}

void VirtualClockService::send_completed(MPI_Comm comm, int dest, std::int64_t bytes, double started_at) {
  if (!on() || dest == MPI_PROC_NULL) return;
  clock_.wait_until(started_at + injection_time(link(comm, dest, false), bytes));
}

void VirtualClockService::received(MPI_Comm comm, const MPI_Status* received, double receive_posted) {
  // MPI_STATUS_IGNORE is not a status to read: the handlers give one of
  // their own whenever the clock carries times.
  if (!carrying_ || received == MPI_STATUS_IGNORE || received->MPI_SOURCE < 0) return;
  const MPI_Status& status = *received;
  const std::optional<SendTime> sent = shadows_.take_send_time(comm, status.MPI_SOURCE, status.MPI_TAG);
  if (sent && sent->synchronous != 0) shadows_.post_answer(comm, status.MPI_SOURCE, status.MPI_TAG, receive_posted);
  if (!sent || !on()) return;
  MPI_Count bytes = 0;  // a large-count message's may pass 2^31
  PMPI_Get_elements_x(&status, MPI_BYTE, &bytes);
  const Link l = link(comm, status.MPI_SOURCE, true);
  clock_.wait_until(message_arrival(sent->sent, l, bytes == MPI_UNDEFINED || bytes < 0 ? 0 : bytes));
}

std::shared_ptr<EntryExchange> VirtualClockService::collective_posted(MPI_Comm comm) {
  if (!carrying_) return nullptr;
  return shadows_.post_entry(comm, clock_.now());
}

void VirtualClockService::collective_completed(EntryExchange* exchange, MPI_Comm comm, model::Collective op,
                                               double bytes) {
  if (exchange == nullptr) return;
  const double latest = shadows_.latest_entry(*exchange);
  if (!on()) return;
  int ranks = 1;
  PMPI_Comm_size(comm, &ranks);
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) {
    int remote = 0;
    PMPI_Comm_remote_size(comm, &remote);
    ranks += remote;
  }
  clock_.wait_until(latest + collective_cost(op, ranks, bytes, collective_link(comm)));
}

std::shared_ptr<NeighbourExchange> VirtualClockService::neighbour_posted(MPI_Comm comm,
                                                                         const std::vector<std::int64_t>& block_bytes) {
  const Neighbourhood* neighbours = neighbourhood(comm);
  if (neighbours == nullptr) return nullptr;
  // As send_posted does for each block: it starts out when the link has put
  // out the ones before it.
  const std::vector<int>& destinations = neighbours->destinations;
  std::vector<double> arrivals(destinations.size(), 0);
  double leaves = clock_.now();
  for (std::size_t j = 0; j < destinations.size() && j < block_bytes.size(); ++j) {
    if (destinations[j] == MPI_PROC_NULL) continue;
    const Link l = link(comm, destinations[j], false);
    const double starts = std::max(leaves, wire_free_at_);
    leaves = starts + injection_time(l, block_bytes[j]);
    if (on()) wire_free_at_ = leaves;
    arrivals[j] = message_arrival(starts, l, block_bytes[j]);
  }
  return shadows_.post_arrivals(comm, std::move(arrivals), leaves);
}

void VirtualClockService::neighbour_completed(NeighbourExchange* exchange) {
  if (exchange == nullptr) return;
  const double done = shadows_.latest_arrival(*exchange);
  if (on()) clock_.wait_until(done);
}

void VirtualClockService::synchronize(MPI_Comm comm) {
  if (!carrying_ || comm == MPI_COMM_NULL) return;
  if (auto exchange = shadows_.post_entry(comm, clock_.now())) {
    collective_completed(exchange.get(), comm, model::Collective::barrier, 0);
  }
}

void VirtualClockService::file_opened(MPI_File fh, MPI_Comm comm) {
  if (!carrying_) return;
  std::lock_guard lock(files_mutex_);
  file_comms_[fh] = comm;
}

void VirtualClockService::file_closed(MPI_File fh) {
  std::lock_guard lock(files_mutex_);
  file_comms_.erase(fh);
}

MPI_Comm VirtualClockService::file_comm(MPI_File fh) const {
  std::lock_guard lock(files_mutex_);
  const auto it = file_comms_.find(fh);
  return it == file_comms_.end() ? MPI_COMM_NULL : it->second;
}

void VirtualClockService::communicator_created(MPI_Comm comm) {
  if (!carrying_ || comm == MPI_COMM_NULL) return;
  // The creation synchronizes the new communicator's members like a barrier.
  shadows_.add(comm);
  synchronize(comm);
}

std::shared_ptr<PendingShadows> VirtualClockService::duplicate_posted(MPI_Comm comm) {
  if (!carrying_) return nullptr;
  return shadows_.post_duplicate(comm);
}

void VirtualClockService::duplicate_completed(MPI_Comm newcomm, PendingShadows& pending) {
  if (carrying_) shadows_.adopt(newcomm, pending);
}

void VirtualClockService::communicator_freed(MPI_Comm comm) {
  if (!carrying_) return;
  shadows_.remove(comm);
  std::lock_guard lock(files_mutex_);
  collective_links_.erase(comm);
}

}  // namespace mheta::interpose
