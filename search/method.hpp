#pragma once
// The search methods by name, and one entry point that runs any of them.
#include <cstdint>
#include <string>
#include <string_view>

#include "model/cluster.hpp"
#include "model/gen_block.hpp"
#include "model/model.hpp"
#include "search/objective.hpp"

namespace mheta::search {

struct SearchOptions {
  std::int64_t min_rows = 0;  // every rank owns at least this many rows
  std::uint64_t seed = 1;     // random, anneal, genetic
  std::int64_t budget = 0;    // evaluations for random, anneal, genetic; 0: their default
  std::int64_t grain = 0;     // exhaustive: units the rows are cut into; 0: the finest affordable
  ProgressCallback progress;
};

struct SearchResult {
  std::string method;
  model::GenBlock dist;
  double iteration_s = 0;  // predicted seconds per iteration of `dist`
  std::int64_t evaluations = 0;
  double search_s = 0;
  std::string detail;  // what the method found on the way (processor counts, grain, ...)
};

// Everything a method sees. The objective counts its evaluations and keeps
// the best distribution; a method returns its detail line.
struct SearchContext {
  const model::Model& model;
  const model::Cluster& cluster;
  const SearchOptions& options;
};
using MethodFunction = std::string (*)(Objective& objective, const SearchContext& context);

struct MethodInfo {
  std::string_view name;
  MethodFunction run;
  std::string_view summary;
};

// Every method, in the order they are listed to users.
std::span<const MethodInfo> methods();
// Throws SearchError naming the methods when `name` is none of them.
const MethodInfo& method_by_name(std::string_view name);
std::string method_names();  // "gbs|prophet|..."

// Runs `method` from scratch. Throws SearchError when the bounds cannot be met.
SearchResult run_search(const model::Model& model, const model::Cluster& cluster, std::string_view method,
                        const SearchOptions& options);

}  // namespace mheta::search
