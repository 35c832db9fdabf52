#pragma once
// cluster.json: what the model knows of the machines, measured by
// `mheta microbench`. Node i describes the node rank i runs on.
//
// Any measured field X may have a sibling X_ci95 (half-width of its 95%
// confidence interval); readers keep it for display only.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/collective.hpp"
#include "model/json_fields.hpp"
#include "model/slowdown.hpp"

namespace mheta::model {

inline constexpr std::string_view kClusterFormat = "mheta-cluster/1";

struct DiskCosts {
  double read_overhead_s = 0;        // O_r: per read request (seek, system call)
  double write_overhead_s = 0;       // O_w: per write request
  double async_read_overhead_s = 0;  // O_A: extra per prefetch (issue + wait)
  double read_s_per_byte = 0;        // r: default when the profile measured no reads
  double write_s_per_byte = 0;       // w: default when the profile measured no writes
};

struct Node {
  std::string name;
  std::uint64_t memory_bytes = 0;  // memory available for the ICLAs of the application
  double cpu_power = 1;            // relative CPU power (higher is faster)
  DiskCosts disk;
  // How much slower than the machine the node is (an emulated node's
  // factors; 1 and 1 for the machine itself), in the unit of the profile's
  // ranks, so a profile captured elsewhere is scaled to this node. Absent:
  // the profile's rates are taken as this node's.
  std::optional<Slowdown> slowdown;
};

struct Link {
  double latency_s = 0;   // alpha
  double s_per_byte = 0;  // beta
  double seconds(double bytes) const { return latency_s + s_per_byte * bytes; }
};

struct LinkException {
  int from = 0;
  int to = 0;
  Link link;
};

struct Network {
  double send_overhead_s = 0;  // O-> per message
  double recv_overhead_s = 0;  // O<- per message
  Link default_link;
  std::vector<LinkException> pairs;  // sorted by (from, to)
  std::array<std::optional<CollectiveCurve>, kCollectiveCount> collectives;

  Link link(int from, int to) const;
  // The curve of `op`; an op without its own curve borrows the curve of the
  // closest op measured (reduce, scan, reduce_scatter -> allreduce; gather,
  // scatter, alltoall -> allgather; bcast -> allreduce), or nullptr.
  const CollectiveCurve* curve(Collective op) const;
};

struct Cluster {
  std::vector<Node> nodes;
  Network network;
  int ranks() const { return static_cast<int>(nodes.size()); }
};

Cluster parse_cluster(std::string_view text, std::string_view source);
Cluster read_cluster(const std::filesystem::path& path);
Json cluster_to_json(const Cluster& cluster);
void write_cluster(const std::filesystem::path& path, const Cluster& cluster);

}  // namespace mheta::model
