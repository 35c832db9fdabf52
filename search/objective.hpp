#pragma once
// What every search method minimizes: the MHETA model's predicted time of
// one iteration. Counts evaluations, remembers the best distribution seen
// and reports progress now and then.
#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "model/model.hpp"
#include "search/row_bounds.hpp"

namespace mheta::search {

struct Progress {
  std::int64_t evaluations = 0;
  double best_s = 0;
  double elapsed_s = 0;
};
using ProgressCallback = std::function<void(const Progress&)>;

class Objective {
 public:
  Objective(const model::Model& model, RowBounds bounds, ProgressCallback progress = {});

  const model::Model& model() const { return model_; }
  const RowBounds& bounds() const { return bounds_; }

  // Predicted seconds per iteration; +infinity outside the bounds.
  double operator()(std::span<const std::int64_t> rows);
  // The same when below `limit`, else some value at least `limit`
  // (Model::iteration_seconds_below): for a search that keeps a
  // distribution only when it beats `limit`.
  double below(std::span<const std::int64_t> rows, double limit);
  // The same evaluation with every rank's breakdown (slower: allocates the breakdown).
  model::Prediction predict(std::span<const std::int64_t> rows);

  // Counts another objective's evaluations as ours and takes its best.
  void absorb(const Objective& other);

  std::int64_t evaluations() const { return evaluations_; }
  double best_seconds() const { return best_s_; }
  const std::vector<std::int64_t>& best_rows() const { return best_rows_; }
  double elapsed_seconds() const;

 private:
  double record(std::span<const std::int64_t> rows, double seconds);

  const model::Model& model_;
  RowBounds bounds_;
  model::Workspace workspace_;
  ProgressCallback progress_;
  std::chrono::steady_clock::time_point start_;
  std::int64_t evaluations_ = 0;
  double best_s_;
  std::vector<std::int64_t> best_rows_;
};

}  // namespace mheta::search
