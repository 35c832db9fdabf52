// mheta search [--profile P] [--cluster C] [--method M] [--min-rows K] [--seed S]
//              [--budget N] [--grain G] [-o best.txt|-] [--json]
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/command.hpp"
#include <mheta/exit_codes.hpp>
#include "cli/prediction_report.hpp"
#include "model/gen_block.hpp"
#include "model/model.hpp"
#include "search/canonical.hpp"
#include "search/method.hpp"
#include "search/search_error.hpp"

namespace mheta::cli {

namespace {

struct SearchCommandOptions {
  std::string profile = "mheta-profile.json";
  std::string cluster = "cluster.json";
  std::string method = "gbs";
  std::string output = "best.txt";
  bool json = false;
  search::SearchOptions search;
};

// Progress on stderr, only on a terminal and only once a search has run
// for a second: short searches and redirected output stay quiet.
class ProgressLine {
 public:
  ProgressLine() : enabled_(isatty(STDERR_FILENO) != 0) {}
  ~ProgressLine() {
    if (shown_) std::fputs("\n", stderr);
  }
  search::ProgressCallback callback() {
    if (!enabled_) return {};
    return [this](const search::Progress& p) {
      if (p.elapsed_s < 1.0 || p.elapsed_s < shown_at_ + 0.25) return;
      shown_ = true;
      shown_at_ = p.elapsed_s;
      std::fprintf(stderr, "\r  %lld evaluations, best %s per iteration, %.1f s   ",
                   static_cast<long long>(p.evaluations), human_seconds(p.best_s).c_str(), p.elapsed_s);
      std::fflush(stderr);
    };
  }

 private:
  bool enabled_;
  bool shown_ = false;
  double shown_at_ = 0;
};

void print_row(std::ostream& out, const std::string& name, const model::Prediction& p, double best) {
  char line[200];
  std::snprintf(line, sizeof line, "  %-12s %14s %14s %+9.1f%%\n", name.c_str(), human_seconds(p.iteration_s).c_str(),
                human_seconds(p.run_s).c_str(), 100 * (p.iteration_s / best - 1));
  out << line;
}

int run_search_command(const SearchCommandOptions& o) {
  const model::Profile profile = model::read_profile(o.profile);
  const model::Cluster cluster = model::read_cluster(o.cluster);
  const model::Model model(profile, cluster);
  search::SearchResult result;
  search::RowBounds bounds;
  try {
    search::method_by_name(o.method);
    bounds = search::row_bounds(model, o.search.min_rows);
    ProgressLine progress;
    search::SearchOptions options = o.search;
    options.progress = progress.callback();
    result = search::run_search(model, cluster, o.method, options);
  } catch (const search::SearchError& error) {
    std::cerr << "mheta search: " << error.what() << "\n";
    return error.cause() == search::SearchError::Cause::inputs ? kExitBadInput : kExitUsage;
  }
  if (!std::isfinite(result.iteration_s)) {
    throw model::ModelError("no distribution has a finite predicted time: the profile or cluster holds values too "
                            "large to model");
  }
  model::write_gen_block(o.output, result.dist);
  // With -o -, the distribution is standard output: the summary goes to stderr.
  std::ostream& out = o.output == "-" ? std::cerr : std::cout;
  model::Workspace workspace(model);
  if (o.json) {
    model::Json canonicals = model::Json::object();
    for (search::Canonical c : search::kCanonicals) {
      const model::GenBlock dist = search::canonical_distribution(model, bounds, c);
      canonicals[std::string(search::canonical_name(c))] = {
          {"distribution", dist.rows}, {"iteration_s", model.iteration_seconds(dist.rows, workspace)}};
    }
    const model::Json json = {{"format", "mheta-search/1"},
                              {"method", result.method},
                              {"distribution", result.dist.rows},
                              {"iteration_s", result.iteration_s},
                              {"iterations", model.iterations()},
                              {"run_s", model.predict(result.dist.rows, workspace).run_s},
                              {"evaluations", result.evaluations},
                              {"search_s", result.search_s},
                              {"detail", result.detail},
                              {"canonical", canonicals},
                              {"output", o.output}};
    out << json.dump(2) << "\n";
    return kExitOk;
  }
  out << "mheta search: " << result.method << " on " << model.ranks() << " ranks, " << model.global_rows()
      << " rows\n  profile  " << o.profile;
  if (!profile.program.empty()) out << " (" << profile.program << ")";
  out << "\n  cluster  " << o.cluster << "\n\n";
  char header[200];
  const std::string run_title = "run (" + std::to_string(model.iterations()) + " it.)";
  std::snprintf(header, sizeof header, "  %-12s %14s %14s %10s\n", "distribution", "per iteration", run_title.c_str(),
                "vs found");
  out << header;
  // Against the found distribution's prediction, which may add the
  // variation of the compute to what the search compared (docs/model.md,
  // "Compute that varies from iteration to iteration").
  const model::Prediction found = model.predict(result.dist.rows, workspace);
  for (search::Canonical c : search::kCanonicals) {
    const model::GenBlock dist = search::canonical_distribution(model, bounds, c);
    print_row(out, std::string(search::canonical_name(c)), model.predict(dist.rows, workspace), found.iteration_s);
  }
  print_row(out, "found", found, found.iteration_s);
  out << "\n  " << result.detail << "\n  " << result.evaluations << " model evaluations in "
      << human_seconds(result.search_s) << "\n  wrote " << (o.output == "-" ? "standard output" : o.output) << "\n";
  return kExitOk;
}

}  // namespace

void add_search_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<SearchCommandOptions>();
  CLI::App* cmd = app.add_subcommand("search", "Search the distribution with the smallest predicted time");
  cmd->add_option("--profile", options->profile, "Instrumented iteration (profile.json)")->capture_default_str();
  cmd->add_option("--cluster", options->cluster, "Cluster description (cluster.json)")->capture_default_str();
  cmd->add_option("--method", options->method, "Search method: " + search::method_names())->capture_default_str();
  cmd->add_option("--min-rows", options->search.min_rows, "Every rank owns at least this many rows")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--seed", options->search.seed, "Random seed (anneal, genetic, random)")->capture_default_str();
  cmd->add_option("--budget", options->search.budget,
                  "Model evaluations for anneal, genetic, random (default 10000); exhaustive: most distributions "
                  "(default 1000000)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--grain", options->search.grain, "Exhaustive: units the rows are cut into (default: finest "
                                                    "within the budget)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("-o,--output", options->output,
                  "Where to write the distribution found (dist.txt format; - for standard output)")
      ->capture_default_str();
  cmd->add_flag("--json", options->json, "Print the outcome as JSON (docs/schemas/search.schema.json)");
  cmd->callback([options, &exit_code] {
    exit_code = run_reporting_errors("search", [&] { return run_search_command(*options); });
  });
}

}  // namespace mheta::cli
