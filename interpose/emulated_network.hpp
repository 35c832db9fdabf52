#pragma once
// The emulated cluster's network: the latency and bandwidth a message pays
// between two ranks under the virtual clock (docs/emulation.md, "Network").
// A default link, changed for every link of a node ("ranks") and for the
// link between two nodes ("pairs"). No MPI here: `mheta run` checks the
// same block before it starts a program.
#include <optional>
#include <string>
#include <vector>

#include "model/json_fields.hpp"

namespace mheta::interpose {

// What one message of b bytes pays on its way: latency_s + b / bandwidth_Bps.
struct Link {
  double latency_s;
  double bandwidth_Bps;
};

// The part of a link an entry of the network block changes; absent: kept.
struct LinkChange {
  std::optional<double> latency_s;
  std::optional<double> bandwidth_Bps;
};

struct NodeLinks {
  int node;  // the configuration's rank (node) whose links change
  LinkChange change;
};

struct PairLink {
  int a;  // two different nodes of the configuration; the link is the same both ways
  int b;
  LinkChange change;
};

struct Network {
  Link base;                     // every link not changed below
  std::vector<NodeLinks> ranks;  // at most one entry a node
  std::vector<PairLink> pairs;   // at most one entry a pair
  int nodes = 1;                 // the configuration's nodes, which the run's ranks are stretched over

  // The link a message from `from_rank` to `to_rank` of a run of `size`
  // ranks crosses. Each rank emulates node floor(rank * nodes / size) (as
  // Emulation::for_rank). A pair entry of the two nodes sets what it gives;
  // a field it leaves out comes from the two nodes' own entries, the slower
  // of them when both give it (the higher latency, the lower bandwidth: a
  // link is as slow as its slower end), else from `base`. A rank's messages
  // to itself cross no network: latency 0, infinite bandwidth.
  Link link(int from_rank, int to_rank, int size) const;
};

// The node rank `rank` of a run of `size` ranks emulates, of `nodes`.
int node_of_rank(int rank, int size, int nodes);

// The Gigabit Ethernet the presets use (docs/emulation.md says where the
// figures come from).
Network gigabit_ethernet(int nodes);

// Parses the "network" block of an emulation file of `nodes` nodes; throws
// model::FormatError naming the file and the field ("network.pairs[1].between").
Network parse_network(const model::JsonFields& fields, const model::Json& block, int nodes);

}  // namespace mheta::interpose
