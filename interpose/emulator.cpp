#include "interpose/emulator.hpp"

#include "interpose/clock.hpp"

namespace mheta::interpose {

namespace {
constexpr double kMinSleep = 100e-6;
}

void Emulator::pay(double& debt, double seconds) const {
  debt += seconds;
  if (debt < kMinSleep) return;
  const double start = now_s();
  sleep_s(debt);
  debt -= now_s() - start;
}

void Emulator::stretch_compute(double compute_s) const {
  if (rank_.cpu_factor > 1 && compute_s > 0) pay(compute_debt_, (rank_.cpu_factor - 1) * compute_s);
}

void Emulator::stretch_io(double io_s) const {
  if (rank_.io_factor > 1 && io_s > 0) pay(io_debt_, (rank_.io_factor - 1) * io_s);
}

void Emulator::delay_completion(double issued_at, double io_s) const {
  if (rank_.io_factor > 1) sleep_s(issued_at + rank_.io_factor * io_s - now_s());
}

}  // namespace mheta::interpose
