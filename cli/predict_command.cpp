// mheta predict dist.txt [--profile P] [--cluster C] [--iterations K] [--json]
#include <iostream>
#include <memory>

#include "cli/command.hpp"
#include <mheta/exit_codes.hpp>
#include "cli/prediction_report.hpp"
#include "model/collective_prices.hpp"
#include "model/gen_block.hpp"
#include "model/model.hpp"
#include "model/strided_sends.hpp"

namespace mheta::cli {

namespace {

struct PredictOptions {
  std::string dist;
  std::string profile = "mheta-profile.json";
  std::string cluster = "cluster.json";
  std::int64_t iterations = 0;
  bool json = false;
};

int run_predict(const PredictOptions& o) {
  const model::Profile profile = model::read_profile(o.profile);
  const model::Cluster cluster = model::read_cluster(o.cluster);
  const model::GenBlock dist = model::read_gen_block(o.dist);
  model::check_gen_block(dist, profile.rank_count(), profile.global_rows(), o.dist);
  const model::Model model(profile, cluster);
  if (const std::string warning = model.normalization_warning(); !warning.empty()) {
    std::cerr << "mheta predict: warning: " << o.profile << ": " << warning << " (" << o.cluster << ")\n";
  }
  if (const std::string warning = model::strided_send_warning(profile, cluster); !warning.empty()) {
    std::cerr << "mheta predict: warning: " << o.profile << ": " << warning << "\n";
  }
  model::Prediction prediction = model.predict(dist.rows);
  if (const std::string warning =
          model::collective_price_warning(model.collective_prices(), profile.rank_count(), prediction.iteration_s);
      !warning.empty()) {
    std::cerr << "mheta predict: warning: " << o.profile << ": " << warning << " (" << o.cluster << ")\n";
  }
  if (o.iterations > 0) {
    prediction.iterations = o.iterations;
    prediction.run_s = model::run_seconds(prediction, o.iterations);
  }
  if (o.json) {
    model::Json out = prediction_to_json(prediction);
    out["distribution"] = dist.rows;
    out["collectives"] = collective_prices_to_json(model.collective_prices());
    std::cout << out.dump(2) << "\n";
    return kExitOk;
  }
  std::cout << "mheta predict: " << o.dist << " on " << dist.ranks() << " ranks, " << dist.total_rows()
            << " rows\n  profile  " << o.profile;
  if (!profile.program.empty()) std::cout << " (" << profile.program << ")";
  std::cout << "\n  cluster  " << o.cluster << "\n\n";
  print_prediction_table(std::cout, prediction);
  return kExitOk;
}

}  // namespace

void add_predict_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<PredictOptions>();
  CLI::App* cmd = app.add_subcommand("predict", "Predict the time of one iteration and of the run for a distribution");
  cmd->add_option("dist", options->dist, "GEN_BLOCK distribution: rows per rank (dist.txt)")->required();
  cmd->add_option("--profile", options->profile, "Instrumented iteration (profile.json)")->capture_default_str();
  cmd->add_option("--cluster", options->cluster, "Cluster description (cluster.json)")->capture_default_str();
  cmd->add_option("--iterations", options->iterations, "Iterations of the run (default: the profile's)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--json", options->json, "Print the prediction as JSON");
  cmd->callback([options, &exit_code] {
    exit_code = run_reporting_errors("predict", [&] { return run_predict(*options); });
  });
}

}  // namespace mheta::cli
