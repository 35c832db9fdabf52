#pragma once
// Small programs and clusters written out in code, so each model test can
// state its inputs next to the equation it checks.
#include <initializer_list>
#include <vector>

#include "model/cluster.hpp"
#include "model/profile.hpp"

namespace mheta::model::testing {

// A cluster of `ranks` identical nodes with the given network overheads and
// link, unlimited memory and free disks unless a test changes them.
inline Cluster uniform_cluster(int ranks, double send_overhead, double recv_overhead, double latency,
                               double s_per_byte) {
  Cluster c;
  for (int r = 0; r < ranks; ++r) {
    c.nodes.push_back(Node{"n" + std::to_string(r), 1ull << 40, 1.0, DiskCosts{}, std::nullopt});
  }
  c.network.send_overhead_s = send_overhead;
  c.network.recv_overhead_s = recv_overhead;
  c.network.default_link = Link{latency, s_per_byte};
  for (Collective op : {Collective::allreduce, Collective::allgather, Collective::bcast, Collective::barrier}) {
    c.network.collectives[static_cast<std::size_t>(op)] = CollectiveCurve{};
  }
  return c;
}

inline Profile empty_profile(std::initializer_list<std::int64_t> rows) {
  Profile p;
  p.program = "test";
  p.distribution.rows = rows;
  p.ranks.resize(rows.size());
  return p;
}

inline Stage compute_stage(double seconds) { return Stage{seconds, {}}; }

inline CommOp send_to(int peer, std::int64_t bytes, int tag = 0) {
  return CommOp{CommKind::send, peer, bytes, tag, Collective::barrier, -1};
}
inline CommOp recv_from(int peer, std::int64_t bytes, int tag = 0) {
  return CommOp{CommKind::recv, peer, bytes, tag, Collective::barrier, -1};
}
inline CommOp collective(Collective op, std::int64_t bytes) {
  return CommOp{CommKind::collective, -1, bytes, 0, op, -1};
}

// The network of the tests of Eq 3-5 (uniform_cluster(ranks, kSend, kRecv,
// kAlpha, kBeta)), and what a message of kBytes costs on it.
namespace message_costs {
constexpr double kSend = 1e-4;   // o of O->
constexpr double kRecv = 2e-4;   // O<-
constexpr double kAlpha = 1e-3;  // latency
constexpr double kBeta = 1e-6;   // s per byte
constexpr std::int64_t kBytes = 1000;
// LogGP: a message of q bytes keeps its sender busy for O->(q) = o + q G
// (its bytes leaving on the link), and arrives the latency after that, at
// the link's L + q/B after the send's o.
constexpr double kSendQ = kSend + kBeta * kBytes;
constexpr double kTransfer = kAlpha;  // T_{0->1}(q), after the sender's O->(q)
}  // namespace message_costs

}  // namespace mheta::model::testing
