// mheta demo: the main job on the bundled example.
#include <iostream>
#include <memory>

#include "cli/command.hpp"
#include <mheta/exit_codes.hpp>
#include "cli/prediction_report.hpp"
#include "model/gen_block.hpp"
#include "model/model.hpp"

namespace mheta::cli {

namespace {

struct DemoOptions {
  std::string examples = "examples";
  bool json = false;
};

int run_demo(const DemoOptions& o) {
  const std::string dir = o.examples + "/jacobi-hy1";
  const model::Profile profile = model::read_profile(dir + "/profile.json");
  const model::Cluster cluster = model::read_cluster(dir + "/cluster.json");
  const model::Model model(profile, cluster);
  model::Json json = {{"format", "mheta-demo/1"}, {"program", profile.program}, {"predictions", model::Json::array()}};
  if (!o.json) {
    std::cout << "mheta demo: " << profile.program << " on the emulated HY1 cluster (" << model.ranks() << " ranks, "
              << model.global_rows() << " rows)\n\n";
  }
  for (const char* name : {"blk.txt", "better.txt"}) {
    const std::string path = dir + "/" + name;
    const model::GenBlock dist = model::read_gen_block(path);
    model::check_gen_block(dist, model.ranks(), model.global_rows(), path);
    const model::Prediction prediction = model.predict(dist.rows);
    if (o.json) {
      model::Json p = prediction_to_json(prediction);
      p["distribution"] = dist.rows;
      json["predictions"].push_back({{"file", path}, {"prediction", p}});
    } else {
      std::cout << "== " << path << "\n";
      print_prediction_table(std::cout, prediction);
      std::cout << "\n";
    }
  }
  if (o.json) std::cout << json.dump(2) << "\n";
  return kExitOk;
}

}  // namespace

void add_demo_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<DemoOptions>();
  CLI::App* cmd = app.add_subcommand("demo", "Run mheta's main job on the bundled example");
  cmd->add_option("--examples", options->examples, "Folder of bundled examples")->capture_default_str();
  cmd->add_flag("--json", options->json, "Print the predictions as JSON (docs/schemas/demo.schema.json)");
  cmd->callback([options, &exit_code] {
    exit_code = run_reporting_errors("demo", [&] { return run_demo(*options); });
  });
}

}  // namespace mheta::cli
