#pragma once
// Turns the measurements into cluster.json: the model's Cluster (written by
// model::cluster_to_json, so the reader and the writer are one), each
// measured figure X with a sibling X_ci95, and a top-level "measurement"
// object saying how the figures were obtained.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "microbench/collective_probe.hpp"
#include "microbench/cpu_probe.hpp"
#include "microbench/disk_probe.hpp"
#include "microbench/network_probe.hpp"
#include "microbench/options.hpp"
#include "model/cluster.hpp"
#include "model/json_fields.hpp"

namespace mheta::microbench {

struct Measurements {
  std::vector<std::string> names;  // per rank
  std::vector<std::uint64_t> memory_bytes;
  std::vector<std::string> memory_sources;
  std::vector<model::Slowdown> slowdowns;  // per rank: the rates it ran at
  CpuResult cpu;
  DiskSetup disk_setup;
  std::vector<DiskResult> disks;
  NetworkResult network;
  CollectiveResult collectives;
  double elapsed_s = 0;
  std::vector<std::pair<std::string, double>> phase_end_s;  // seconds since the start
};

model::Cluster cluster_from(const Measurements& m);
model::Json cluster_report(const Options& options, const Measurements& m);

}  // namespace mheta::microbench
