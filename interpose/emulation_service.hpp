#pragma once
// Heterogeneity emulation (MHETA §5.1, docs/emulation.md) as a service: a
// slower CPU stretches each compute section before a call, a slower disk
// each MPI-IO transfer (emulator.hpp does the arithmetic and the sleeping).
#include "interpose/emulator.hpp"
#include "interpose/service.hpp"

namespace mheta::interpose {

class EmulationService final : public Service {
 public:
  const char* name() const override { return "emulation"; }
  void on_start(Runtime& rt) override;
  bool keeps_engaged(const Runtime&) const override { return true; }
  // Compute is CPU time on every rank of an emulated run, so ranks compare alike.
  bool measures_cpu() const override { return true; }
  void before_call(Runtime&, Fn, ComputeSection& section) override;
  void value_compute(Runtime&, ComputeSection& section) override;
  void time_file_io(Runtime&, FileTiming& timing) override;
  std::optional<DiskTurn> disk_request(Runtime&, DiskOp op, std::int64_t bytes, double issued_at) override {
    return emulator_.disk_turn(op, bytes, issued_at);
  }
  double file_io_factor() const override { return emulator_.io_factor(); }
  double compute_factor() const override { return emulator_.compute_factor(); }

 private:
  Emulator emulator_;
};

}  // namespace mheta::interpose
