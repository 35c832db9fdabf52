#include "io/icla_group.hpp"

#include "io/memory_budget.hpp"

namespace mheta::io {

IclaGroup::IclaGroup(const std::vector<LocalArray*>& arrays, const SweepSettings& settings)
    : run_forced_(settings.force_out_of_core), forced_(settings.force_out_of_core) {
  const std::vector<const LocalArray*> view(arrays.begin(), arrays.end());
  usual_ = plan_sweep(view, settings);
  SweepSettings forcing = settings;
  forcing.force_out_of_core = true;
  forced_plans_ = plan_sweep(view, forcing);
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    arrays_.push_back(std::make_unique<IclaArray>(*arrays[i], usual_[i], settings.prefetch));
  }
}

std::vector<const IclaArray*> IclaGroup::views() const {
  std::vector<const IclaArray*> v;
  for (const auto& a : arrays_) v.push_back(a.get());
  return v;
}

void IclaGroup::follow_environment() {
  const bool forced = run_forced_ || force_out_of_core_from_environment();
  if (forced == forced_) return;
  forced_ = forced;
  for (std::size_t i = 0; i < arrays_.size(); ++i) arrays_[i]->switch_plan(forced ? forced_plans_[i] : usual_[i]);
}

}  // namespace mheta::io
