#pragma once
// The distributed variables a program sweeps together, each an IclaArray,
// sized together by the one ICLA policy (io/sweep_plan.hpp).
//
// The interposer forces every rank out of core from the iteration before
// the one it captures to the end of that one (mheta_out_of_core_forced() of
// <mheta/interposer.h>, interpose/out_of_core_service.hpp), so that every
// rank's I/O is measured there; MHETA_FORCE_OOC=1 forces the whole run.
// follow_environment(), called at the start of each iteration, switches the
// arrays to the forced plans while either holds and back when neither does.
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
