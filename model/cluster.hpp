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
#include "model/link.hpp"
#include "model/slowdown.hpp"

namespace mheta::model {

inline constexpr std::string_view kClusterFormat = "mheta-cluster/1";

struct DiskCosts {
  double read_overhead_s = 0;        // O_r: per read request (seek, system call)
  double write_overhead_s = 0;       // O_w: per write request
  double async_read_overhead_s = 0;  // O_A: extra per prefetch (issue + wait)
  double read_s_per_byte = 0;        // r: default when the profile measured no reads
  double write_s_per_byte = 0;       // w: default when the profile measured no writes
  // The same requests served by the page cache: reads of pages in memory,
  // writes left to the kernel's write-back. A program whose ICLAs stay in
  // memory pays these per request, not the disk's (calibrate_io chooses).
  // 0 and 0: not measured (cluster files written before them).
  double cached_read_overhead_s = 0;
  double cached_read_s_per_byte = 0;
  double buffered_write_overhead_s = 0;
  double buffered_write_s_per_byte = 0;
  // A block in the page cache read through a mapping and hashed row by row,
  // per byte: the processor's part of a redistribution's reads (its old
  // block's rows and the read-back of its new one, io/redistribution.cpp),
  // at the node's speed. 0: not measured (cluster files written before it).
  double mapped_hash_s_per_byte = 0;
};

// Every figure of DiskCosts, with its name in cluster.json, in one list for
// the reader, the writer and the microbenchmark's packing.
struct DiskField {
  const char* name;
  double DiskCosts::*value;
  bool required;  // in every cluster file; the page cache's are optional
};
inline constexpr DiskField kDiskFields[] = {
    {"read_overhead_s", &DiskCosts::read_overhead_s, true},
    {"write_overhead_s", &DiskCosts::write_overhead_s, true},
    {"async_read_overhead_s", &DiskCosts::async_read_overhead_s, true},
    {"read_s_per_byte", &DiskCosts::read_s_per_byte, true},
    {"write_s_per_byte", &DiskCosts::write_s_per_byte, true},
    {"cached_read_overhead_s", &DiskCosts::cached_read_overhead_s, false},
    {"cached_read_s_per_byte", &DiskCosts::cached_read_s_per_byte, false},
    {"buffered_write_overhead_s", &DiskCosts::buffered_write_overhead_s, false},
    {"buffered_write_s_per_byte", &DiskCosts::buffered_write_s_per_byte, false},
    {"mapped_hash_s_per_byte", &DiskCosts::mapped_hash_s_per_byte, false},
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

struct LinkException {
  int from = 0;
  int to = 0;
  Link link;
};

struct Network {
  double send_overhead_s = 0;  // O-> per message
  double recv_overhead_s = 0;  // O<- per message
  // What a message of a non-contiguous datatype costs beyond its bytes,
  // per contiguous block of its data (CommOp::segments; docs/model.md,
  // "Messages of non-contiguous datatypes"). Absent: not measured (a
  // cluster file written before), and such messages cost their bytes.
  std::optional<double> segment_s;
  Link default_link;
  std::vector<LinkException> pairs;  // sorted by (from, to)
  std::array<std::optional<CollectiveCurve>, kCollectiveCount> collectives;
  // Collectives timed at the sizes of a program (per op, sorted by ranks
  // then bytes); they take precedence over the curve where they match.
  std::array<std::vector<CollectivePoint>, kCollectiveCount> collective_points;

  // A reference into the cluster: a Link holds its curve, and the model
  // looks links up while it compiles a profile and reroutes messages.
  const Link& link(int from, int to) const;
  // The curve of `op`; an op without its own curve borrows the curve of the
  // closest op measured (reduce, scan -> allreduce; gather, scatter ->
  // allgather; bcast -> allreduce; and, for cluster files measured before
  // they had their own, reduce_scatter -> allreduce, alltoall ->
  // allgather), or nullptr.
  const CollectiveCurve* curve(Collective op) const;
  // What `op` of `bytes` over `ranks` ranks costs: the point measured at
  // exactly these sizes, else its curve (own or borrowed), else nothing.
  std::optional<double> collective_seconds(Collective op, int ranks, std::int64_t bytes) const;
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
