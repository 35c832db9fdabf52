#include "cli/prediction_report.hpp"

#include <cstdio>

namespace mheta::cli {

std::string human_seconds(double seconds) {
  char text[64];
  if (seconds >= 1.0) {
    std::snprintf(text, sizeof text, "%.3f s", seconds);
  } else if (seconds >= 1e-3) {
    std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
  } else {
    std::snprintf(text, sizeof text, "%.1f us", seconds * 1e6);
  }
  return text;
}

void print_prediction_table(std::ostream& out, const model::Prediction& p) {
  char line[256];
  std::snprintf(line, sizeof line, "predicted iteration  %.6f s  (%s)\n", p.iteration_s,
                human_seconds(p.iteration_s).c_str());
  out << line;
  if (p.typical_iteration_s != p.iteration_s) {
    std::snprintf(line, sizeof line,
                  "typical iteration    %.6f s  (%s: the median; the iteration above is the mean of the compute's "
                  "variation)\n",
                  p.typical_iteration_s, human_seconds(p.typical_iteration_s).c_str());
    out << line;
  }
  if (p.first_iteration_s != p.iteration_s) {
    std::snprintf(line, sizeof line, "first iteration      %.6f s  (%s: from a common start, then the iteration above)\n",
                  p.first_iteration_s, human_seconds(p.first_iteration_s).c_str());
    out << line;
  }
  std::snprintf(line, sizeof line, "predicted run        %.6f s  (%lld iterations)\n\n", p.run_s,
                static_cast<long long>(p.iterations));
  out << line;
  out << "rank        rows  compute_ms       io_ms  in_core  N_L  ICLA_MiB     comm_ms     wait_ms    total_ms\n";
  for (std::size_t r = 0; r < p.ranks.size(); ++r) {
    const model::RankBreakdown& b = p.ranks[r];
    const bool in_core = b.out_of_core_variables == 0;
    char chunks[32] = "-";
    char icla[32] = "-";
    if (!in_core) {
      std::snprintf(chunks, sizeof chunks, "%lld", static_cast<long long>(b.chunks));
      std::snprintf(icla, sizeof icla, "%.2f", static_cast<double>(b.icla_bytes) / (1024.0 * 1024.0));
    }
    std::snprintf(line, sizeof line, "%4zu  %10lld  %10.3f  %10.3f  %7s  %3s  %8s  %10.3f  %10.3f  %10.3f%s\n", r,
                  static_cast<long long>(b.rows), b.compute_s * 1e3, b.io_s * 1e3, in_core ? "yes" : "no", chunks,
                  icla, b.comm_s * 1e3, b.wait_s * 1e3, b.total_s * 1e3,
                  static_cast<int>(r) == p.slowest_rank ? "  <- slowest" : "");
    out << line;
  }
}

model::Json prediction_to_json(const model::Prediction& p) {
  model::Json ranks = model::Json::array();
  for (const model::RankBreakdown& b : p.ranks) {
    ranks.push_back({{"rows", b.rows},
                     {"compute_s", b.compute_s},
                     {"io_s", b.io_s},
                     {"comm_s", b.comm_s},
                     {"wait_s", b.wait_s},
                     {"total_s", b.total_s},
                     {"in_core", b.out_of_core_variables == 0},
                     {"out_of_core_variables", b.out_of_core_variables},
                     {"chunks", b.chunks},
                     {"icla_bytes", b.icla_bytes}});
  }
  return {{"format", "mheta-prediction/1"},
          {"iteration_s", p.iteration_s},
          {"first_iteration_s", p.first_iteration_s},
          {"typical_iteration_s", p.typical_iteration_s},
          {"iterations", p.iterations},
          {"run_s", p.run_s},
          {"slowest_rank", p.slowest_rank},
          {"ranks", ranks}};
}

model::Json collective_prices_to_json(const std::vector<model::CollectivePrice>& prices) {
  model::Json out = model::Json::array();
  for (const model::CollectivePrice& c : prices) {
    model::Json entry = {{"call", c.call},
                         {"op", model::collective_name(c.op)},
                         {"bytes", c.bytes},
                         {"cluster_s", c.cluster_s},
                         {"priced_by", c.by_capture ? "capture" : "cluster"}};
    if (c.inside_s) entry["inside_s"] = *c.inside_s;
    out.push_back(entry);
  }
  return out;
}

}  // namespace mheta::cli
