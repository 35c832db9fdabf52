#pragma once
// The distributed variables a program sweeps together, each an IclaArray,
// sized together by the one ICLA policy (io/sweep_plan.hpp).
//
// The interposer sets MHETA_FORCE_OOC=1 for the iteration it captures only
// (interpose/runtime.cpp), so that every rank's I/O is measured there.
// follow_environment(), called at the start of each iteration, switches the
// arrays to the forced plans while it is set and back when it is not.
#include <cstddef>
#include <memory>
#include <vector>

#include "io/icla_array.hpp"
#include "io/sweep_plan.hpp"

namespace mheta::io {

class IclaGroup {
 public:
  IclaGroup(const std::vector<LocalArray*>& arrays, const SweepSettings& settings);

  std::size_t size() const { return arrays_.size(); }
  IclaArray& operator[](std::size_t i) { return *arrays_[i]; }
  std::vector<const IclaArray*> views() const;

  // Out of core while the run or the environment forces it. Between sweeps only.
  void follow_environment();
  bool forced() const { return forced_; }

 private:
  std::vector<std::unique_ptr<IclaArray>> arrays_;
  std::vector<model::IclaPlan> usual_;
  std::vector<model::IclaPlan> forced_plans_;
  bool run_forced_;
  bool forced_;
};

}  // namespace mheta::io
