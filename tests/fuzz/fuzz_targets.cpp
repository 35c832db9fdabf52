#include "tests/fuzz/fuzz_targets.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>

#include "interpose/emulation_config.hpp"
#include "interpose/row_weights_file.hpp"
#include "model/cluster.hpp"
#include "model/format_error.hpp"
#include "model/gen_block.hpp"
#include "model/model.hpp"
#include "model/profile.hpp"

namespace mheta::fuzz {

namespace {

std::string g_profile;
std::string g_cluster;

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
  std::abort();
}

// Runs `body`; the documented errors are expected outcomes of bad input.
template <class Body>
void expecting_clear_errors(Body body) {
  try {
    body();
  } catch (const model::FormatError&) {
  } catch (const model::ModelError&) {
  } catch (const std::exception& e) {
    finding(std::string("an exception that is not a documented error: ") + model::excerpt(e.what(), 300));
  }
}

void require_finite(double seconds, const char* what) {
  if (!std::isfinite(seconds)) finding(std::string("a prediction that is not finite: ") + what);
}

// The model's entry: every time it returns for the instrumented and the
// equal-block distribution is finite, or it refuses.
void predict_both(const model::Profile& profile, const model::Cluster& cluster) {
  const model::Model model(profile, cluster);
  model::Workspace workspace(model);
  for (const model::GenBlock& dist :
       {profile.distribution, model::block_distribution(model.global_rows(), model.ranks())}) {
    const model::Prediction p = model.predict(dist.rows);
    require_finite(p.iteration_s, "iteration_s");
    require_finite(p.run_s, "run_s");
    for (const model::RankBreakdown& r : p.ranks) {
      require_finite(r.compute_s, "compute_s");
      require_finite(r.io_s, "io_s");
      require_finite(r.comm_s, "comm_s");
      require_finite(r.wait_s, "wait_s");
      require_finite(r.total_s, "total_s");
    }
    require_finite(model.iteration_seconds(dist.rows, workspace), "iteration_seconds");
  }
}

void profile_target(std::string_view input) {
  expecting_clear_errors([&] { model::parse_profile(input, "profile.json"); });
}

void cluster_target(std::string_view input) {
  expecting_clear_errors([&] { model::parse_cluster(input, "cluster.json"); });
}

void dist_target(std::string_view input) {
  expecting_clear_errors([&] {
    const model::GenBlock dist = model::parse_gen_block(input, "dist.txt");
    model::check_gen_block(dist, dist.ranks(), dist.total_rows(), "dist.txt");
  });
}

void emulation_target(std::string_view input) {
  expecting_clear_errors([&] {
    const interpose::Emulation e = interpose::parse_emulation(input, "emulation.json");
    for (const interpose::RankEmulation& r : e.ranks) {
      if (!(r.cpu_factor >= 1 && r.cpu_factor <= interpose::kMaxEmulationFactor) ||
          !(r.io_factor >= 1 && r.io_factor <= interpose::kMaxEmulationFactor)) {
        finding("an emulation factor outside its documented range was accepted");
      }
    }
  });
}

void weights_target(std::string_view input) {
  expecting_clear_errors([&] { interpose::parse_row_weights(input, "weights.txt"); });
}

void model_profile_target(std::string_view input) {
  expecting_clear_errors([&] {
    predict_both(model::parse_profile(input, "profile.json"), model::parse_cluster(g_cluster, "cluster.json"));
  });
}

void model_cluster_target(std::string_view input) {
  expecting_clear_errors([&] {
    predict_both(model::parse_profile(g_profile, "profile.json"), model::parse_cluster(input, "cluster.json"));
  });
}

constexpr NamedTarget kTargets[] = {
    {"profile", profile_target},       {"cluster", cluster_target},
    {"dist", dist_target},             {"emulation", emulation_target},
    {"weights", weights_target},       {"model-profile", model_profile_target},
    {"model-cluster", model_cluster_target},
};

}  // namespace

std::span<const NamedTarget> targets() { return kTargets; }

const NamedTarget* target_by_name(std::string_view name) {
  for (const NamedTarget& t : kTargets) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

void set_model_inputs(std::string profile_json, std::string cluster_json) {
  g_profile = std::move(profile_json);
  g_cluster = std::move(cluster_json);
}

}  // namespace mheta::fuzz
