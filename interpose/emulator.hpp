#pragma once
// Heterogeneity emulation at run time (MHETA §5.1): stretch the compute
// between MPI calls by sleeping, and make MPI-IO take io_factor times as long.
// The interposer's core calls it through these few functions.
#include "interpose/emulation_config.hpp"

namespace mheta::interpose {

class Emulator {
 public:
  void configure(const RankEmulation& rank) {
    rank_ = rank;
    active_ = rank.cpu_factor > 1 || rank.io_factor > 1;
  }
  bool active() const { return active_; }
  double io_factor() const { return rank_.io_factor; }

  // Before an MPI call that ends `compute_s` of compute: sleeps
  // (cpu_factor - 1) * compute_s.
  void stretch_compute(double compute_s) const;
  // After an MPI-IO call that took `io_s`: sleeps (io_factor - 1) * io_s.
  void stretch_io(double io_s) const;
  // A non-blocking MPI-IO request issued at `issued_at`, whose transfer took
  // `io_s`, completes no earlier than issued_at + io_factor * io_s.
  void delay_completion(double issued_at, double io_s) const;

 private:
  // Sleeps shorter than the timer's resolution are owed, not slept; what
  // nanosleep oversleeps is credited. Many short gaps then add up right.
  void pay(double& debt, double seconds) const;

  RankEmulation rank_;
  bool active_ = false;
  mutable double compute_debt_ = 0;
  mutable double io_debt_ = 0;
};

}  // namespace mheta::interpose
