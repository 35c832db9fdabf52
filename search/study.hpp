#pragma once
// The Prophesy-style study (Weissman's dissertation §6.1-6.2): random
// programs on random heterogeneous clusters; for each, the optimum by
// exhaustive search at a coarse grain, and how close every other method
// comes to it.
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace mheta::search {

struct StudyOptions {
  int instances = 500;
  std::uint64_t seed = 1;
  int min_ranks = 2;
  int max_ranks = 5;
  double exhaustive_budget = 20000;     // distributions the oracle may evaluate per instance
  std::int64_t baseline_budget = 2000;  // evaluations for anneal, genetic, random
};

struct MethodStats {
  std::string method;
  int within_1_percent = 0;  // of the coarse-grain optimum (or better than it)
  int within_5_percent = 0;
  double worst_excess = 0;  // largest (time / optimum - 1)
  double mean_excess = 0;
  double mean_evaluations = 0;
  double mean_search_s = 0;
};

struct StudyReport {
  int instances = 0;
  double mean_oracle_evaluations = 0;
  std::vector<MethodStats> methods;
  std::vector<std::string> worst_gbs_instances;  // descriptions of GBS's misses beyond 1%
};

StudyReport run_study(const StudyOptions& options);

// A table: per method, the share of instances within 1% and 5% of the
// optimum, the worst case, evaluations and time; GBS's targets beside it.
void print_study(std::ostream& out, const StudyReport& report);

}  // namespace mheta::search
