#pragma once
// Heterogeneity emulation at run time (MHETA §5.1): a slower CPU by
// sleeping after the compute between MPI calls, a slower disk by making
// MPI-IO last as long as the emulation's disk takes (emulated_disk.hpp), or
// io_factor times as long as it took when the emulation has no disk. The
// interposer's core calls it through these few functions.
//
// Time dilation (docs/emulation.md): a compute section's emulated duration
// is cpu_factor * dilation * the CPU time the thread actually used in it, not
// a multiple of its wall time. Wall time on a node with more ranks than
// cores depends on how the ranks happen to share the cores at that moment
// (a captured iteration and a real run share them differently); CPU time
// does not. The section is then made to last its emulated duration, and that
// duration is what the capture records, so the profile describes the
// emulated node whatever the contention.
#include <mutex>
#include <optional>

#include "interpose/emulation_config.hpp"

namespace mheta::interpose {

// Sleeps until wall time `t` (a non-blocking MPI-IO request's emulated
// completion, in the call that completes it). What nanosleep oversleeps is
// credited against the thread's next I/O sleep, as the blocking calls' are,
// so a run of requests keeps the emulated disk's schedule; each sleep alone
// wakes tens of microseconds late. No-op when `t` has passed.
void sleep_io_until(double t);

class Emulator {
 public:
  // `dilation` >= 1 multiplies the CPU factor (Emulation::dilation, resolved).
  // With a `disk`, MPI-IO is timed on it (no dilation: a rank's disk is its own).
  void configure(const RankEmulation& rank, double dilation, const std::optional<Disk>& disk = std::nullopt);
  // Whether this process emulates at all: compute is then measured by CPU
  // time, on every rank of an emulated run, so ranks compare alike.
  bool active() const { return active_; }
  double io_factor() const { return rank_.io_factor; }
  double compute_factor() const { return compute_factor_; }

  // The emulated duration of a compute section that used `cpu_s` of CPU.
  double emulated_compute(double cpu_s) const { return compute_factor_ * (cpu_s > 0 ? cpu_s : 0); }
  // Before an MPI call that ends a compute section of `cpu_s` CPU time which
  // has lasted `wall_s`: sleeps until it has lasted its emulated duration,
  // which it returns.
  double stretch_compute(double cpu_s, double wall_s) const;
  // After an MPI-IO call that has lasted `wall_s`, of which `io_s` not
  // waiting for a core: sleeps until it has lasted io_factor * io_s, which it
  // returns (the same dilation for the disk as for the CPU: the time the
  // call waited for a core depends on the other ranks, not on the disk).
  double stretch_io(double io_s, double wall_s) const;

  // Whether MPI-IO is timed on the emulation's disk.
  bool emulates_disk() const { return disk_.has_value(); }
  // A blocking MPI-IO call issued at wall time `issued_at`, of which `io_s`
  // did not wait for a core, on the emulation's disk: sleeps until the disk
  // has served it, and returns its I/O time (the disk's, or what the
  // machine took when that was longer).
  double serve_io(DiskOp op, std::int64_t bytes, double issued_at, double io_s);
  // A non-blocking one: its turn on the disk (its completion call sleeps
  // until then). Empty when the emulation has no disk.
  std::optional<DiskTurn> disk_turn(DiskOp op, std::int64_t bytes, double issued_at);

 private:
  // A request's turn on the disk, taken under the lock: threads of a rank
  // may call MPI-IO at once (MPI_THREAD_MULTIPLE), and the disk is the rank's.
  double take_turn(DiskOp op, std::int64_t bytes, double issued_at);

  RankEmulation rank_;
  std::mutex disk_mutex_;
  std::optional<DiskQueue> disk_;
  double compute_factor_ = 1;
  bool active_ = false;
};

}  // namespace mheta::interpose
