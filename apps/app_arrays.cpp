#include "apps/app_arrays.hpp"

#include <iostream>
#include <nlohmann/json.hpp>
#include <utility>

#include "io/redistribution_startup.hpp"

namespace mheta::apps {

AppArrays::AppArrays(AppContext& ctx, std::vector<io::RowShape> shapes) : ctx_(ctx), shapes_(std::move(shapes)) {
  if (ctx_.options.automatic) {
    const std::string done = io::bring_to_distribution(ctx_.comm, ctx_.options.data, shapes_, ctx_.dist);
    if (ctx_.rank == 0 && !done.empty()) std::cout << "mheta: " << done << std::endl;
    ctx_.runtime.emplace(ctx_.comm, ctx_.options.data, shapes_, ctx_.dist, ctx_.options.iters);
  }
  open();
}

void AppArrays::open() {
  opened_ = io::open_or_create(ctx_.comm, ctx_.options.data, shapes_, ctx_.dist);
  std::vector<io::LocalArray*> arrays;
  for (io::LocalArray& a : opened_.arrays) arrays.push_back(&a);
  group_.emplace(arrays, ctx_.settings);
  ctx_.report->describe(ctx_.settings, group_->views(), ctx_.dist.rows[static_cast<std::size_t>(ctx_.rank)]);
}

void AppArrays::publish_generated() { io::publish_generated(ctx_.comm, ctx_.options.data, opened_); }

bool AppArrays::after_iteration(int completed, const Rebuild& rebuild) {
  if (!ctx_.runtime || !ctx_.runtime->decides_after(completed)) return false;
  // The runtime moves what is on disk: in-core blocks are written back
  // first (a discarded one, like jacobi's previous grid, is not), and new
  // blocks are where it looks.
  for (std::size_t i = 0; i < group_->size(); ++i) (*group_)[i].flush();
  publish_generated();
  // Its handles are closed before the files move.
  group_.reset();
  opened_.arrays.clear();
  const std::optional<advisor::AutoDecision> decision = ctx_.runtime->after_iteration(completed);
  const model::GenBlock old_dist = ctx_.dist;
  if (decision && decision->redistribute) ctx_.dist = ctx_.runtime->dist();
  if (decision && ctx_.rank == 0) {
    std::cout << nlohmann::json{{"mheta", "decision"},
                                {"after_iteration", completed},
                                {"decision", decision->redistribute ? "redistribute" : "stay"},
                                {"from", old_dist.rows},
                                {"to", ctx_.dist.rows},
                                {"predicted_current_s", decision->current_s},
                                {"predicted_best_s", decision->best_s},
                                {"gain_s", decision->gain_s},
                                {"cost_s", decision->cost_s},
                                {"moved_s", decision->moved_s}}
                     .dump()
              << std::endl;
  }
  open();
  const bool moved = ctx_.dist != old_dist;
  if (moved) rebuild(old_dist);
  return moved;
}

}  // namespace mheta::apps
