#include "search/method.hpp"

#include "search/baselines.hpp"
#include "search/gbs.hpp"
#include "search/prophet.hpp"
#include "search/search_error.hpp"

namespace mheta::search {

namespace {

std::string prophet_h1(Objective& objective, const SearchContext& context) {
  return prophet_partition(objective, context.cluster, Heuristic::h1);
}
std::string prophet_h2(Objective& objective, const SearchContext& context) {
  return prophet_partition(objective, context.cluster, Heuristic::h2);
}

constexpr MethodInfo kMethods[] = {
    {"gbs", generalized_binary_search, "generalized binary search, refined under the full model (default)"},
    {"prophet", prophet_h1, "Prophet partitioner, heuristic H1"},
    {"prophet-h2", prophet_h2, "Prophet partitioner, heuristic H2"},
    {"exhaustive", exhaustive_search, "every distribution at a coarse grain (--grain)"},
    {"anneal", simulated_annealing, "simulated annealing from Blk (--budget evaluations)"},
    {"genetic", genetic_search, "genetic algorithm (--budget evaluations)"},
    {"random", random_search, "best of random distributions (--budget evaluations)"},
};

}  // namespace

std::span<const MethodInfo> methods() { return kMethods; }

std::string method_names() {
  std::string out;
  for (const MethodInfo& m : kMethods) out += (out.empty() ? "" : "|") + std::string(m.name);
  return out;
}

const MethodInfo& method_by_name(std::string_view name) {
  for (const MethodInfo& m : kMethods) {
    if (m.name == name) return m;
  }
  throw SearchError(SearchError::Cause::request, "unknown search method \"" + std::string(name) + "\" (expected " + method_names() + ")");
}

SearchResult run_search(const model::Model& model, const model::Cluster& cluster, std::string_view method,
                        const SearchOptions& options) {
  const MethodInfo& info = method_by_name(method);
  Objective objective(model, row_bounds(model, options.min_rows), options.progress);
  const SearchContext context{model, cluster, options};
  SearchResult result;
  result.method = std::string(info.name);
  result.detail = info.run(objective, context);
  result.dist = model::GenBlock{objective.best_rows()};
  result.iteration_s = objective.best_seconds();
  result.evaluations = objective.evaluations();
  result.search_s = objective.elapsed_seconds();
  return result;
}

}  // namespace mheta::search
