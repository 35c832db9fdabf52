// mheta trace profile.json [--cluster C] [--dist D] [-o trace.json]
//
// The captured iteration, replayed by the model on the cluster, as a
// timeline Perfetto (ui.perfetto.dev) and chrome://tracing open.
#include <iostream>
#include <memory>

#include "cli/command.hpp"
#include <mheta/exit_codes.hpp>
#include "cli/trace_events.hpp"
#include "model/gen_block.hpp"
#include "model/model.hpp"
#include "model/output_file.hpp"

namespace mheta::cli {

namespace {

struct TraceOptions {
  std::string profile;
  std::string cluster = "cluster.json";
  std::string dist;
  std::string output = "trace.json";
};

int run_trace(const TraceOptions& o) {
  const model::Profile profile = model::read_profile(o.profile);
  const model::Cluster cluster = model::read_cluster(o.cluster);
  model::GenBlock dist = profile.distribution;
  if (!o.dist.empty()) {
    dist = model::read_gen_block(o.dist);
    model::check_gen_block(dist, profile.rank_count(), profile.global_rows(), o.dist);
  }
  const model::Model model(profile, cluster);
  const model::Prediction timeline = model.timeline(dist.rows);
  model::write_output(o.output, trace_events(timeline, profile.program.empty() ? o.profile : profile.program).dump() +
                                    "\n");
  if (o.output != "-") std::cerr << "mheta trace: wrote " << o.output << "\n";
  return kExitOk;
}

}  // namespace

void add_trace_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<TraceOptions>();
  CLI::App* cmd = app.add_subcommand("trace", "Write the captured iteration as a Perfetto / Chrome trace timeline");
  cmd->add_option("profile", o->profile, "Instrumented iteration (profile.json)")->required();
  cmd->add_option("--cluster", o->cluster, "Cluster description (cluster.json)")->capture_default_str();
  cmd->add_option("--dist", o->dist, "Distribution to replay (default: the one the profile ran with)");
  cmd->add_option("-o,--output", o->output, "The trace to write (- for standard output)")->capture_default_str();
  cmd->callback([o, &exit_code] { exit_code = run_reporting_errors("trace", [&] { return run_trace(*o); }); });
}

}  // namespace mheta::cli
