// Time to evaluate one distribution with the MHETA model, for 8 to 8192
// ranks. Prints each figure beside its target (the paper took 5.4 ms for 8).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <vector>

#include "model/model.hpp"
#include "synthetic_program.hpp"

namespace {

using mheta::model::Model;
using mheta::model::Workspace;

constexpr int kSections = 2;

// Two distributions that differ on every rank (some ranks out of core, none
// empty): evaluating them in turn costs a whole evaluation each time, since
// the workspace reuses only the costs of ranks whose rows did not change.
std::vector<std::vector<std::int64_t>> every_rank_differs(int ranks) {
  std::vector<std::vector<std::int64_t>> d(2, std::vector<std::int64_t>(static_cast<std::size_t>(ranks), 256));
  for (int r = 0; r + 1 < ranks; r += 2) {
    for (int k = 0; k < 2; ++k) {
      const std::int64_t shift = k == 0 ? 64 : -32;
      d[static_cast<std::size_t>(k)][static_cast<std::size_t>(r)] += shift;
      d[static_cast<std::size_t>(k)][static_cast<std::size_t>(r) + 1] -= shift;
    }
  }
  return d;
}

// Evaluates two distributions in turn (every rank's rows differ between
// them) for as long as the benchmark runs.
void evaluate_in_turn(benchmark::State& state, const Model& model, int ranks) {
  Workspace ws(model);
  const auto dists = every_rank_differs(ranks);
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(model.iteration_seconds(dists[k], ws));
    k ^= 1;
  }
}

void BM_EvaluateDistribution(benchmark::State& state) {
  const int ranks = static_cast<int>(state.range(0));
  const Model model(mheta::bench::jacobi_like_profile(ranks, 256, kSections), mheta::bench::mixed_cluster(ranks));
  evaluate_in_turn(state, model, ranks);
  state.counters["ranks_x_sections"] = static_cast<double>(ranks * kSections);
}
BENCHMARK(BM_EvaluateDistribution)->Arg(8)->Arg(64)->Arg(1024)->Arg(8192)->Unit(benchmark::kMicrosecond);

// The same on a cluster whose links carry a measured curve (cluster.json's
// `curve`, nine sizes as `mheta microbench` probes them): the sends' costs
// are taken from it when the model is built, so an evaluation should cost
// what it costs on a line.
void BM_EvaluateDistributionCurvedLinks(benchmark::State& state) {
  const int ranks = static_cast<int>(state.range(0));
  mheta::model::Cluster cluster = mheta::bench::mixed_cluster(ranks);
  cluster.network.default_link.set_curve(std::vector<mheta::model::LinkPoint>{{8, 6.4e-7},
                                                                              {32, 6.9e-7},
                                                                              {128, 8.8e-7},
                                                                              {512, 9.1e-7},
                                                                              {2048, 1.2e-6},
                                                                              {8192, 2.1e-6},
                                                                              {32768, 2.0e-5},
                                                                              {131072, 6.9e-5},
                                                                              {524288, 2.6e-4}});
  const Model model(mheta::bench::jacobi_like_profile(ranks, 256, kSections), cluster);
  evaluate_in_turn(state, model, ranks);
}
BENCHMARK(BM_EvaluateDistributionCurvedLinks)->Arg(1024)->Unit(benchmark::kMicrosecond);

// What a search does: distributions that differ from the one before in the
// rows of two ranks (16 rows moved between neighbours, a different pair each
// time), so only their costs are recomputed before the replay.
void BM_EvaluateRowMove(benchmark::State& state) {
  const int ranks = static_cast<int>(state.range(0));
  const Model model(mheta::bench::jacobi_like_profile(ranks, 256, kSections), mheta::bench::mixed_cluster(ranks));
  Workspace ws(model);
  std::vector<std::int64_t> rows = every_rank_differs(ranks)[0];
  int donor = 0;
  for (auto _ : state) {
    const auto d = static_cast<std::size_t>(donor);
    const std::int64_t amount = rows[d] > 16 ? 16 : -16;
    rows[d] -= amount;
    rows[d + 1] += amount;
    benchmark::DoNotOptimize(model.iteration_seconds(rows, ws));
    donor = (donor + 7) % (ranks - 1);
  }
}
BENCHMARK(BM_EvaluateRowMove)->Arg(8)->Arg(1024)->Arg(8192)->Unit(benchmark::kMicrosecond);

// Collects the time per evaluation by rank count for the summary.
class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      // One figure per size: the median when repeated, else the single run.
      const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      if (run.run_type != Run::RT_Iteration && !median) continue;
      const auto size = run.counters.find("ranks_x_sections");
      if (size == run.counters.end()) continue;
      // CPU time: the machine is shared, and waiting for a core is not the model's cost.
      seconds_[static_cast<int>(size->second.value / kSections)] = run.GetAdjustedCPUTime() / 1e6;  // in microseconds
    }
    ConsoleReporter::ReportRuns(runs);
  }
  const std::map<int, double>& seconds() const { return seconds_; }

 private:
  std::map<int, double> seconds_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  SummaryReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  const auto& s = reporter.seconds();
  if (s.count(8) == 0 || s.count(1024) == 0 || s.count(64) == 0 || s.count(8192) == 0) return 0;
  std::printf("\nmodel evaluation of one distribution, CPU time   figure        target\n");
  std::printf("  8 ranks                               %10.2f us   <= 10 us (paper: 5.4 ms)\n", s.at(8) * 1e6);
  std::printf("  1024 ranks                            %10.2f us   <= 100 us\n", s.at(1024) * 1e6);
  std::printf("  8192 ranks                            %10.2f us   <= 1000 us\n", s.at(8192) * 1e6);
  // Linear growth in ranks x sections: time per rank-section must not grow
  // from 64 to 8192 ranks (allow 2x for caches).
  const double growth = (s.at(8192) / 8192) / (s.at(64) / 64);
  std::printf("  per rank-section, 8192 vs 64 ranks    %10.2fx      <= 2x (linear)\n", growth);
  const bool met = s.at(8) <= 10e-6 && s.at(1024) <= 100e-6 && s.at(8192) <= 1e-3 && growth <= 2.0;
  std::printf("targets %s\n", met ? "met" : "MISSED");
  return 0;
}
