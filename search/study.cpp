#include "search/study.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <random>

#include "model/model.hpp"
#include "search/method.hpp"
#include "search/synthetic_instance.hpp"

namespace mheta::search {

namespace {

constexpr std::string_view kCompared[] = {"gbs", "prophet", "prophet-h2", "anneal", "genetic", "random"};
constexpr std::int64_t kRows[] = {240, 960, 3840};

}  // namespace

StudyReport run_study(const StudyOptions& options) {
  StudyReport report;
  report.instances = options.instances;
  for (std::string_view m : kCompared) report.methods.push_back(MethodStats{std::string(m)});
  std::mt19937_64 random(options.seed);
  for (int k = 0; k < options.instances; ++k) {
    const int ranks = std::uniform_int_distribution<int>(options.min_ranks, options.max_ranks)(random);
    const std::int64_t rows = kRows[std::uniform_int_distribution<std::size_t>(0, std::size(kRows) - 1)(random)];
    const Instance instance = random_instance(random, ranks, rows);
    const model::Model model(instance.profile, instance.cluster);
    SearchOptions oracle_options;
    oracle_options.budget = static_cast<std::int64_t>(options.exhaustive_budget);
    const SearchResult oracle = run_search(model, instance.cluster, "exhaustive", oracle_options);
    report.mean_oracle_evaluations += static_cast<double>(oracle.evaluations) / options.instances;
    for (MethodStats& stats : report.methods) {
      SearchOptions o;
      o.seed = options.seed + static_cast<std::uint64_t>(k);
      o.budget = options.baseline_budget;
      const SearchResult result = run_search(model, instance.cluster, stats.method, o);
      const double excess = std::max(0.0, result.iteration_s / oracle.iteration_s - 1);
      stats.within_1_percent += excess <= 0.01;
      stats.within_5_percent += excess <= 0.05;
      stats.worst_excess = std::max(stats.worst_excess, excess);
      stats.mean_excess += excess / options.instances;
      stats.mean_evaluations += static_cast<double>(result.evaluations) / options.instances;
      stats.mean_search_s += result.search_s / options.instances;
      if (stats.method == "gbs" && excess > 0.01) {
        char line[160];
        std::snprintf(line, sizeof line, "#%d %s: %+.2f%%", k, instance.description.c_str(), 100 * excess);
        report.worst_gbs_instances.push_back(line);
      }
    }
  }
  return report;
}

void print_study(std::ostream& out, const StudyReport& report) {
  const double n = report.instances;
  char line[240];
  std::snprintf(line, sizeof line, "%d instances; optimum: exhaustive at a coarse grain, %.0f evaluations each on average\n",
                report.instances, report.mean_oracle_evaluations);
  out << line;
  out << "method        within 1%   within 5%   worst     mean excess  evaluations  search time\n";
  for (const MethodStats& s : report.methods) {
    std::snprintf(line, sizeof line, "%-12s  %8.1f%%   %8.1f%%  %+7.2f%%   %+8.3f%%   %10.0f   %9.3f ms\n",
                  s.method.c_str(), 100 * s.within_1_percent / n, 100 * s.within_5_percent / n,
                  100 * s.worst_excess, 100 * s.mean_excess, s.mean_evaluations, 1e3 * s.mean_search_s);
    out << line;
  }
  out << "targets (GBS): within 1% in >= 95% of instances, never worse than 5%\n";
  for (const std::string& miss : report.worst_gbs_instances) out << "  GBS beyond 1%: " << miss << "\n";
}

}  // namespace mheta::search
