#include "advisor/auto_redistribute.hpp"

#include <mheta/interposer.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <mheta/environment.hpp>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "microbench/microbench.hpp"
#include "model/cluster.hpp"
#include "model/model.hpp"
#include "model/profile.hpp"
#include "search/method.hpp"

namespace mheta::advisor {

using io::redistribute;
using io::RedistributionError;
using io::RedistributionStats;
using io::RowShape;

namespace {

// The iteration the interposer captures; without it, the iteration it would
// have captured (the decision then only says the interposer is missing).
int capture_iteration() {
  if (mheta_capture_iteration != nullptr) return static_cast<int>(mheta_capture_iteration());
  const char* n = std::getenv(env::kCaptureIteration);
  const int value = n != nullptr ? std::atoi(n) : 0;
  return value > 0 ? value : static_cast<int>(env::kDefaultCaptureIteration);
}

void say(const std::string& line) { std::cout << "mheta: " << line << std::endl; }

}  // namespace

AutoRedistributor::AutoRedistributor(MPI_Comm comm, std::filesystem::path data_dir, std::vector<RowShape> variables,
                                     model::GenBlock dist, int total_iterations, AutoOptions options)
    : comm_(comm),
      data_dir_(std::move(data_dir)),
      variables_(std::move(variables)),
      dist_(std::move(dist)),
      total_iterations_(total_iterations),
      options_(std::move(options)),
      capture_iteration_(capture_iteration()) {
  MPI_Comm_rank(comm_, &rank_);
  if (options_.cluster.empty()) {
    if (const char* c = std::getenv(env::kCluster); c != nullptr && *c != '\0') options_.cluster = c;
  }
}

std::optional<AutoDecision> AutoRedistributor::after_iteration(int completed) {
  if (decided_ || completed < capture_iteration_) return std::nullopt;
  decided_ = true;
  // 1. Is there a profile of this run? Only with the interposer loaded,
  // and only when it captured (it warns on stderr when it could not).
  int usable = 0;
  std::filesystem::path profile;
  if (rank_ == 0) {
    if (!mheta_interposer_loaded()) {
      say("automatic redistribution needs the interposer (mheta run, or LD_PRELOAD=libmheta-interpose.so): "
          "continuing on " +
          model::rows_in_brackets(dist_));
    } else if (const char* written = mheta_written_profile(); written == nullptr) {
      say("no profile of this run after iteration " + std::to_string(completed) + ": continuing on " +
          model::rows_in_brackets(dist_));
    } else {
      profile = written;
      usable = 1;
    }
  }
  MPI_Bcast(&usable, 1, MPI_INT, 0, comm_);
  if (!usable) return std::nullopt;

  // 2. The cluster: measured before, or measured now (collective).
  std::optional<model::Cluster> quick;
  std::string quick_problem;
  const bool need_quick = options_.cluster.empty();
  if (need_quick) {
    if (rank_ == 0) {
      std::ostringstream line;
      line << "no cluster.json ($MHETA_CLUSTER): a quick characterization of " << options_.characterization_s << " s";
      say(line.str());
    }
    microbench::Options o;
    o.budget_s = options_.characterization_s;
    o.disk_file_bytes = 4 << 20;
    MPI_Comm dup = MPI_COMM_NULL;
    MPI_Comm_dup(comm_, &dup);
    try {
      quick = microbench::measure_cluster(o, dup);  // rank 0's, checked as cluster.json would be
    } catch (const std::exception& e) {
      quick_problem = e.what();  // after the collectives: rank 0 says so below
    }
    MPI_Comm_free(&dup);
  }

  // 3. Rank 0 predicts, searches and decides; every rank learns the outcome.
  AutoDecision decision;
  decision.from = dist_;
  decision.to = dist_;
  if (rank_ == 0) {
    try {
      const model::Profile captured = model::read_profile(profile);
      if (need_quick && !quick) throw std::runtime_error(quick_problem);
      const model::Cluster cluster = need_quick ? *quick : model::read_cluster(options_.cluster);
      const model::Model m(captured, cluster);
      decision.current_s = m.predict(dist_.rows).iteration_s;
      const search::SearchResult best = search::run_search(m, cluster, "gbs", {});
      decision.to = best.dist;
      decision.best_s = best.iteration_s;
      decision.remaining = total_iterations_ - completed;
      decision.gain_s = (decision.current_s - decision.best_s) * decision.remaining;
      decision.cost_s = m.redistribution_seconds(dist_.rows, decision.to.rows);
      decision.redistribute = decision.to != dist_ && decision.gain_s > decision.cost_s * (1 + options_.margin);
      std::ostringstream line;
      line << "after iteration " << completed << " of " << total_iterations_ << ": predicted " << decision.current_s
           << " s/iteration on " << model::rows_in_brackets(dist_) << ", " << decision.best_s << " s on GBS's "
           << model::rows_in_brackets(decision.to) << "; gain " << decision.gain_s << " s over " << decision.remaining
           << " iterations " << (decision.redistribute ? ">" : "<=") << " cost " << decision.cost_s << " s x "
           << (1 + options_.margin) << ": " << (decision.redistribute ? "redistributing" : "staying");
      decision.summary = line.str();
    } catch (const std::exception& e) {
      decision.redistribute = false;
      decision.to = dist_;
      decision.summary =
          std::string("cannot decide (") + e.what() + "): continuing on " + model::rows_in_brackets(dist_);
    }
    say(decision.summary);
  }
  double figures[5] = {decision.redistribute ? 1.0 : 0.0, decision.current_s, decision.best_s, decision.gain_s,
                       decision.cost_s};
  MPI_Bcast(figures, 5, MPI_DOUBLE, 0, comm_);
  decision.redistribute = figures[0] != 0;
  decision.current_s = figures[1];
  decision.best_s = figures[2];
  decision.gain_s = figures[3];
  decision.cost_s = figures[4];
  decision.remaining = total_iterations_ - completed;
  MPI_Bcast(decision.to.rows.data(), static_cast<int>(decision.to.rows.size()), MPI_INT64_T, 0, comm_);
  if (!decision.redistribute) return decision;

  // 4. Move the data; a failure rolls back and the program stays where it was.
  try {
    const RedistributionStats stats =
        redistribute(comm_, data_dir_, variables_, dist_, decision.to, options_.redistribution);
    decision.moved_s = stats.total_s;
    dist_ = decision.to;
    if (rank_ == 0) {
      std::ostringstream line;
      line << "redistributed " << stats.bytes_written << " bytes in " << stats.total_s << " s (predicted "
           << decision.cost_s << " s; copy, exchange and write " << stats.exchange_s << " s, sync and verify "
           << stats.verify_s << " s, commit and switch " << stats.switch_s << " s)";
      say(line.str());
    }
  } catch (const RedistributionError& e) {
    if (rank_ == 0)
      say(std::string("redistribution failed, continuing on ") + model::rows_in_brackets(dist_) + ": " + e.what());
    decision.redistribute = false;
    decision.to = dist_;
  }
  return decision;
}

}  // namespace mheta::advisor
