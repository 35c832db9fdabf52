#include "search/objective.hpp"

#include <algorithm>
#include <limits>

namespace mheta::search {

Objective::Objective(const model::Model& model, RowBounds bounds, ProgressCallback progress)
    : model_(model),
      bounds_(std::move(bounds)),
      workspace_(model),
      progress_(std::move(progress)),
      start_(std::chrono::steady_clock::now()),
      best_s_(std::numeric_limits<double>::infinity()) {}

void Objective::absorb(const Objective& other) {
  evaluations_ += other.evaluations_;
  if (other.best_s_ < best_s_) {
    best_s_ = other.best_s_;
    best_rows_ = other.best_rows_;
  }
}

double Objective::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

double Objective::operator()(std::span<const std::int64_t> rows) {
  return below(rows, model::Model::kNoLimit);
}

double Objective::below(std::span<const std::int64_t> rows, double limit) {
  if (!bounds_.contains(rows)) return std::numeric_limits<double>::infinity();
  const double t = model_.iteration_seconds_below(rows, workspace_, limit);
  if (t < limit) return record(rows, t);
  // At least the limit, and perhaps only a bound below the period: counted
  // as an evaluation, never taken for the best.
  record(rows, std::numeric_limits<double>::infinity());
  return t;
}

model::Prediction Objective::predict(std::span<const std::int64_t> rows) {
  model::Prediction p = model_.predict(rows, workspace_);
  record(rows, p.iteration_s);
  return p;
}

double Objective::record(std::span<const std::int64_t> rows, double t) {
  ++evaluations_;
  if (t < best_s_) {
    best_s_ = t;
    best_rows_.assign(rows.begin(), rows.end());
  }
  // Every 4096 evaluations: cheap enough to ignore, often enough to see.
  if (progress_ && (evaluations_ & 4095) == 0) progress_(Progress{evaluations_, best_s_, elapsed_seconds()});
  return t;
}

}  // namespace mheta::search
