#pragma once
// The virtual clock of an emulated run (MHETA_CLOCK=virtual, the default
// when emulating; docs/emulation.md, "Virtual time"). Each rank's time
// advances by its compute (CPU time x CPU factor), its I/O (on the emulated
// disk, else the measured I/O time, x I/O factor), and waits on messages and collectives timed on the
// emulated network; MPI_Wtime returns it. Nothing is slept to stretch time,
// so a run is as fast as the machine allows and its times do not depend on
// how ranks sharing cores were scheduled.
//
// A service of the runtime (service.hpp) in place of emulation by sleeping:
// it gives compute and I/O their emulated durations, and MPI_Wtime its
// time. The category handlers (handlers.hpp) also call it at the points
// below, through Runtime::clock(); every such call is a no-op while the
// clock is off (wall clock, or after falling back).
#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "interpose/active_target_times.hpp"
#include "interpose/emulation_config.hpp"
#include "interpose/service.hpp"
#include "interpose/shadow_comms.hpp"
#include "interpose/undisturbed_compute.hpp"
#include "interpose/virtual_time.hpp"
#include "model/collective.hpp"

namespace mheta::interpose {

class VirtualClockService final : public Service {
 public:
  // A link of the emulated network between two ranks of MPI_COMM_WORLD.
  using Network = std::function<Link(int from, int to)>;

  // The service's hooks.
  const char* name() const override { return "virtual-clock"; }
  void on_start(Runtime& rt) override;
  void on_finish(Runtime& rt) override;
  bool keeps_engaged(const Runtime&) const override { return true; }
  bool measures_cpu() const override { return true; }
  bool measures_preemptions() const override { return true; }
  void before_call(Runtime&, Fn, ComputeSection& section) override;
  void value_compute(Runtime&, ComputeSection& section) override;
  void time_file_io(Runtime&, FileTiming& timing) override;
  // On the emulation's disk, in virtual time: the request is issued now
  // (the clock does not move; its completion call waits until its turn).
  std::optional<DiskTurn> disk_request(Runtime&, DiskOp op, std::int64_t bytes, double issued_at) override;
  double file_io_factor() const override { return rank_.io_factor; }
  double compute_factor() const override { return rank_.cpu_factor; }
  void on_wtime(Runtime& rt, double& seconds) override;
  // What the clock did after the call (a send time received, the other
  // ranks' entries waited for) is no compute of the program either.
  void after_call(Runtime& rt, Fn fn, const CallInfo& call, int rc) override;
  void on_capture_end(Runtime&, bool) override;
  // Whether the captured iteration (or, before one, the times so far) was
  // timed by the virtual clock: the profile's `clock`.
  bool timed_capture() const { return captured_ ? capture_virtual_ : on(); }

  // The time MPI_Wtime would return now, the compute since the last call
  // included, without moving the clock.
  double program_time(Runtime& rt) const;

  // MPI_Init has returned (every rank calls it: collective). Without a
  // network, the machine's own is measured (network_probe.hpp).
  void start(const RankEmulation& rank, Network network, bool sleep_wait, std::optional<Disk> disk = std::nullopt);
  // Before MPI_Finalize.
  void finish();
  // Threads call MPI concurrently: the clock cannot order their events. Says
  // so once; from here on the rank runs on the wall clock (the times keep
  // travelling, so the other ranks are not held up).
  void fall_back();

  bool on() const { return on_.load(std::memory_order_relaxed); }
  // Whether times travel with messages and collectives (also after falling back).
  bool carrying() const { return carrying_; }
  double now() const { return clock_.now(); }

  // Compute since the previous MPI call: returns its virtual duration.
  double compute(double cpu_s);
  // An emulated disk's non-blocking request completes at `t`.
  void wait_until(double t);
  // The program slept `seconds` between MPI calls (or waited that long for
  // a deadline). Owed, not yet spent: should it read its clock before its
  // next MPI call (MPI_Wtime, clock_gettime), the clock moves on by it
  // first, so that a program waiting by its clock (sleep_until, a loop of
  // sleeps until a time) sees the time it slept pass; an MPI call drops
  // it, so that a polling loop's sleeps leave the wait to the emulated
  // network (docs/emulation.md, "Sleeps and yields").
  void slept(double seconds);
  // Whether MPI-IO is timed on the emulation's disk (emulated_disk.hpp)
  // rather than by its measured time.
  bool emulates_disk() const { return on() && disk_.has_value(); }

  // Point-to-point. A send's time travels ahead of it; the send completes
  // once its bytes are on the wire. A rank's link carries one message at a
  // time (LogGP's gap, as the model's sender pays it): a message posted
  // while earlier ones are still going out starts when they are out.
  // `send_posted` gives the time its bytes start out, which `send_completed`
  // takes.
  // A synchronous send (Ssend, Issend, Ssend_init) completes no earlier
  // than its receive was posted, plus the latency of the answer back.
  double send_posted(MPI_Comm comm, int dest, int tag, std::int64_t bytes, bool synchronous = false);
  void send_completed(MPI_Comm comm, int dest, std::int64_t bytes, double started_at);
  void synchronous_send_completed(MPI_Comm comm, int dest, int tag, std::int64_t bytes, double started_at);
  // A message has arrived (its status, as MPI returned it) at a receive
  // posted at virtual time `receive_posted` (answered to a synchronous send).
  void received(MPI_Comm comm, const MPI_Status* status, double receive_posted);

  // Collectives: the entry time goes out where the collective is posted;
  // it ends at the latest entry plus its cost (virtual_time.hpp).
  std::shared_ptr<EntryExchange> collective_posted(MPI_Comm comm);
  void collective_completed(EntryExchange* exchange, MPI_Comm comm, model::Collective op, double bytes);

  // Neighbourhood collectives (MPI_Neighbor_*, their non-blocking and
  // persistent forms) are timed as the same exchange of point-to-point
  // messages: this rank's blocks leave one after another on its link, in
  // its destinations' order, each arriving latency + bytes / bandwidth
  // after it started out; the collective ends once its own blocks have left
  // and its sources' have arrived, so a rank waits for its in-neighbours
  // only, not for the whole communicator. `block_bytes`: the bytes of its
  // block to each destination of `comm` (neighbourhood()). Nothing is
  // posted on a communicator without a topology.
  const Neighbourhood* neighbourhood(MPI_Comm comm) const { return carrying_ ? shadows_.neighbourhood(comm) : nullptr; }
  std::shared_ptr<NeighbourExchange> neighbour_posted(MPI_Comm comm, const std::vector<std::int64_t>& block_bytes);
  void neighbour_completed(NeighbourExchange* exchange);

  // A blocking collective without a cost of its own on the network (MPI-IO
  // collectives, before their I/O is timed): the clock moves to the latest
  // entry plus a barrier's cost. The ranks also meet in real time, so the
  // I/O timed after it holds no wait for another rank.
  void synchronize(MPI_Comm comm);

  // Communicators the program creates (collective over the new one) and frees.
  void communicator_created(MPI_Comm comm);
  // A non-blocking duplicate of `comm` posted (MPI_Comm_idup): its shadows
  // are duplicated alongside; adopted where the program's request completes.
  std::shared_ptr<PendingShadows> duplicate_posted(MPI_Comm comm);
  void duplicate_completed(MPI_Comm newcomm, PendingShadows& pending);
  void communicator_freed(MPI_Comm comm);
  // Windows (MPI_Win_create, ..., collective over `comm`; virtual_clock_windows.cpp):
  // a duplicate of `comm`, with its shadow, carries the times of their
  // synchronization. A transfer (put, get, accumulate) leaves on the rank's
  // link as a send does and arrives latency + bytes / bandwidth later (a get
  // is priced as a put of its bytes); the call that ends its epoch waits for
  // it. Each synchronization call returns false on a window not seen
  // created: it is not followed.
  void window_created(MPI_Win win, MPI_Comm comm);
  void window_freed(MPI_Win win);
  void window_transfer(MPI_Win win, int target, std::int64_t bytes);
  bool knows_window(MPI_Win win) const;
  // A fence meets like a barrier over the window's group once every rank's
  // transfers of the epoch have arrived.
  bool fence(MPI_Win win);
  // General active target. MPI_Win_post: the target's time goes to the
  // origins of `origins`. MPI_Win_start: the post times of `targets` are
  // awaited. MPI_Win_complete ends no earlier than each target's post plus
  // the latency, nor before the epoch's transfers have left the link.
  // MPI_Win_wait (or a test that returned true) ends once each origin's
  // completion and transfers have arrived.
  bool window_posted(MPI_Win win, MPI_Group origins);
  bool window_started(MPI_Win win, MPI_Group targets);
  bool window_completed(MPI_Win win);
  bool window_waited(MPI_Win win);
  // Passive target: the target takes no part. An unlock or flush of
  // `target` (every target: `every_target`) ends once the transfers to it
  // have arrived; a local flush (`left_only`) once they have left the link.
  bool window_flushed(MPI_Win win, int target, bool every_target, bool left_only);
  // Files, for the communicator their collective calls are over.
  void file_opened(MPI_File fh, MPI_Comm comm);
  void file_closed(MPI_File fh);
  MPI_Comm file_comm(MPI_File fh) const;

 private:
  // The link between this rank and its point-to-point `peer` on `comm` (a
  // rank of the remote group on an intercommunicator), from the peer or to it.
  Link link(MPI_Comm comm, int peer, bool from_peer) const;
  Link collective_link(MPI_Comm comm) const;

  RankEmulation rank_;
  // Compute sections as if never preempted; the function that began the
  // current one, and the one before it (undisturbed_compute.hpp).
  UndisturbedCompute undisturbed_;
  Fn earlier_fn_ = Fn::count_;
  Fn last_fn_ = Fn::count_;
  // Sections in a row that were a polling loop's own (between two polls,
  // too short to be work), and whether the call that began the current one
  // was a poll that found nothing: together, whether the loop spins empty.
  int empty_polls_ = 0;
  bool idle_poll_ = false;
  Network network_;
  Link measured_{.latency_s = 0, .bandwidth_Bps = 0};
  int world_rank_ = 0;
  VirtualClock clock_;
  ShadowComms shadows_;
  mutable std::mutex files_mutex_;  // files and cached links
  mutable std::unordered_map<MPI_Comm, Link> collective_links_;  // under files_mutex_
  std::unordered_map<MPI_File, MPI_Comm> file_comms_;
  // This rank's transfers of an open epoch to one target of a window.
  struct Transfers {
    double starts = std::numeric_limits<double>::infinity();  // when the first of them went out
    double leave = 0;   // when they have left the rank's link
    double arrive = 0;  // when they have arrived
  };
  struct Window {
    MPI_Comm group = MPI_COMM_NULL;                // a duplicate of the window's communicator
    std::unordered_map<int, Transfers> transfers;  // by target, a rank of `group`
    std::unique_ptr<ActiveTargetTimes> active;     // the times of its post/start/complete/wait epochs
  };
  // The window, or nothing when not seen created (its node stays put until freed).
  Window* window(MPI_Win win) const;
  // The latest departure and arrival of this rank's transfers to `target`
  // (every target: `every_target`) in the window's open epoch, which they
  // then leave unless `keep`.
  Transfers end_transfers(Window& w, int target, bool every_target, bool keep);
  mutable std::unordered_map<MPI_Win, Window> windows_;  // under files_mutex_
  std::atomic<bool> on_{false};
  double fallback_offset_ = 0;
  double slept_s_ = 0;  // the program's sleeps since its last MPI call (slept())
  bool captured_ = false;
  bool capture_virtual_ = false;
  bool carrying_ = false;
  bool sleep_wait_ = false;  // waits sleep between polls (MHETA_WAIT=sleep)
  double wire_free_at_ = 0;  // when this rank's link has put out every message posted so far
  std::optional<DiskQueue> disk_;  // the emulation's disk; absent: the machine's, measured
};

}  // namespace mheta::interpose
