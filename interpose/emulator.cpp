#include "interpose/emulator.hpp"

#include <algorithm>

#include "interpose/clock.hpp"

namespace mheta::interpose {

namespace {

// Sleeps shorter than this are owed, not slept (nanosleep's own overhead is
// tens of microseconds); what nanosleep oversleeps is credited against the
// next sleep. Per thread, so threads do not pay each other's debts. Many short
// gaps then add up right on average, although one section may end a little
// early or late.
constexpr double kMinSleep = 100e-6;
thread_local double t_compute_debt = 0;
thread_local double t_io_debt = 0;

void pay(double& debt, double seconds) {
  debt += seconds;
  if (debt < kMinSleep) return;
  const double start = now_s();
  sleep_s(debt);
  debt -= now_s() - start;
}

}  // namespace

void sleep_io_until(double t) {
  const double rest = t - now_s();
  if (rest > 0) pay(t_io_debt, rest);
}

void Emulator::configure(const RankEmulation& rank, double dilation, const std::optional<Disk>& disk) {
  rank_ = rank;
  disk_.reset();
  if (disk) disk_.emplace(*disk, rank.io_factor);
  compute_factor_ = rank.cpu_factor * (dilation > 1 ? dilation : 1);
  active_ = true;
}

double Emulator::stretch_compute(double cpu_s, double wall_s) const {
  const double emulated = emulated_compute(cpu_s);
  // Only what the section still lacks is slept: the time the thread waited
  // for a core already counts towards the emulated duration.
  if (emulated > wall_s) pay(t_compute_debt, emulated - wall_s);
  return emulated;
}

double Emulator::stretch_io(double io_s, double wall_s) const {
  if (!(io_s > 0)) return 0;
  const double emulated = rank_.io_factor * std::min(io_s, wall_s);
  if (emulated > wall_s) pay(t_io_debt, emulated - wall_s);
  return emulated;
}

double Emulator::take_turn(DiskOp op, std::int64_t bytes, double issued_at) {
  std::lock_guard lock(disk_mutex_);
  return disk_->request(issued_at, op, bytes);
}

double Emulator::serve_io(DiskOp op, std::int64_t bytes, double issued_at, double io_s) {
  const double done_at = take_turn(op, bytes, issued_at);
  // A disk that took longer than the emulated one is not made up for by the
  // next request: the emulated disk is a floor.
  sleep_io_until(done_at);
  return std::max(done_at - issued_at, io_s);
}

std::optional<DiskTurn> Emulator::disk_turn(DiskOp op, std::int64_t bytes, double issued_at) {
  if (!disk_) return std::nullopt;
  const double done_at = take_turn(op, bytes, issued_at);
  return DiskTurn{.done_at = done_at, .seconds = done_at - issued_at};
}

}  // namespace mheta::interpose
