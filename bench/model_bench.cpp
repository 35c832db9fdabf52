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

// Evaluates a distribution that moves rows around (some ranks out of core,
// none empty), as a search does.
void BM_EvaluateDistribution(benchmark::State& state) {
  const int ranks = static_cast<int>(state.range(0));
  const Model model(mheta::bench::jacobi_like_profile(ranks, 256, kSections), mheta::bench::mixed_cluster(ranks));
  Workspace ws(model);
  std::vector<std::int64_t> rows(static_cast<std::size_t>(ranks), 256);
  for (int r = 0; r + 1 < ranks; r += 2) {
    rows[static_cast<std::size_t>(r)] += 64;
    rows[static_cast<std::size_t>(r) + 1] -= 64;
  }
  for (auto _ : state) benchmark::DoNotOptimize(model.iteration_seconds(rows, ws));
  state.counters["ranks_x_sections"] = static_cast<double>(ranks * kSections);
}
BENCHMARK(BM_EvaluateDistribution)->Arg(8)->Arg(64)->Arg(1024)->Arg(8192)->Unit(benchmark::kMicrosecond);

// Collects the time per evaluation by rank count for the summary.
class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      // One figure per size: the median when repeated, else the single run.
      const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      if (run.run_type != Run::RT_Iteration && !median) continue;
      seconds_[static_cast<int>(run.counters.at("ranks_x_sections").value / kSections)] =
          run.GetAdjustedRealTime() / 1e6;  // reported in microseconds
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
  std::printf("\nmodel evaluation of one distribution        figure        target\n");
  std::printf("  8 ranks                               %10.2f us   <= 10 us (paper: 5.4 ms)\n", s.at(8) * 1e6);
  std::printf("  1024 ranks                            %10.2f us   <= 2000 us\n", s.at(1024) * 1e6);
  // Linear growth in ranks x sections: time per rank-section must not grow
  // from 64 to 8192 ranks (allow 2x for caches).
  const double growth = (s.at(8192) / 8192) / (s.at(64) / 64);
  std::printf("  per rank-section, 8192 vs 64 ranks    %10.2fx      <= 2x (linear)\n", growth);
  const bool met = s.at(8) <= 10e-6 && s.at(1024) <= 2e-3 && growth <= 2.0;
  std::printf("targets %s\n", met ? "met" : "MISSED");
  return 0;
}
