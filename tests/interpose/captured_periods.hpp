#pragma once
// Captured periods for the tests of period_alignment and period_rotation:
// what the runtime records of a rank that runs one step of a loop over and
// over and captures one period of it, and the shape of a period to compare.
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "interpose/message_channels.hpp"
#include "interpose/profile_assembly.hpp"
#include "interpose/timeline.hpp"
#include "model/cluster.hpp"

namespace mheta::interpose::testing {

inline model::CommOp op(model::CommKind kind, int peer, int tag, std::int64_t bytes) {
  model::CommOp o;
  o.kind = kind;
  o.peer = peer;
  o.tag = tag;
  o.bytes = bytes;
  return o;
}

// One step of a rank's loop: compute, then its messages.
struct Step {
  double compute_s = 0;
  std::vector<model::CommOp> ops;
};

// What the runtime records of a rank that runs `step` over and over and
// captures one period from operation `phase` of step `at` on: every
// message numbered in its channel since the start (the runtime's
// ChannelCounter), the period a Timeline of the calls from that operation to
// the same operation of the next step (the compute before it closing it).
// With `tag_step`, step s's messages carry their tags plus s * tag_step (a
// program that tags each step's messages with the step number).
inline RankRecord captured(int rank, const Step& step, int at, int phase, int tag_step = 0) {
  ChannelCounter counter;
  Timeline period;
  const int ops = static_cast<int>(step.ops.size());
  const int begin = at * ops + phase;  // the operation the capture begins before
  for (int s = 0; s <= at + 1; ++s) {
    if (s * ops > begin && s * ops <= begin + ops) period.add_compute(step.compute_s);
    for (int k = 0; k < ops; ++k) {
      const int g = s * ops + k;
      model::CommOp o = step.ops[static_cast<std::size_t>(k)];
      if (o.kind != model::CommKind::collective) o.tag += s * tag_step;
      const std::int64_t number = counter.next(channel_of(o));
      if (g >= begin && g < begin + ops) period.add_comm(o, number);
    }
  }
  RankRecord r;
  r.rank = rank;
  r.complete = true;
  r.sections = period.sections();
  r.channel_starts = period.channel_starts();
  return r;
}

// The profile the records make together, as rank 0 assembles it.
inline model::Profile profile_of(const std::vector<RankRecord>& records) {
  std::vector<std::string> warnings;
  return assemble_profile(records, {"prog", static_cast<std::int64_t>(records.size()), "", 0, {}}, warnings);
}

// `ranks` nodes whose memory holds everything, on a network of 10 us
// latency: the replay's times are the profile's own.
inline model::Cluster uniform_cluster(int ranks) {
  model::Cluster cluster;
  cluster.nodes.resize(static_cast<std::size_t>(ranks));
  for (model::Node& node : cluster.nodes) node.memory_bytes = std::uint64_t{1} << 40;
  cluster.network.default_link.latency_s = 1e-5;
  return cluster;
}

// The kind, peer, tag and bytes of every operation, in order, and each
// section's compute.
struct Shape {
  std::vector<std::tuple<int, int, int, std::int64_t>> ops;
  std::vector<double> compute;
  bool operator==(const Shape&) const = default;
};

inline Shape shape_of(const std::vector<model::Section>& sections) {
  Shape s;
  for (const model::Section& section : sections) {
    double compute = 0;
    for (const model::Stage& stage : section.stages) compute += stage.compute_s;
    s.compute.push_back(compute);
    for (const model::CommOp& o : section.comm) s.ops.emplace_back(static_cast<int>(o.kind), o.peer, o.tag, o.bytes);
  }
  return s;
}

}  // namespace mheta::interpose::testing
