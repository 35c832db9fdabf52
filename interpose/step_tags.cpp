#include "interpose/step_tags.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

#include "interpose/message_channels.hpp"

namespace mheta::interpose {

namespace {

// A tag of the program's: the interposer's own (neighbourhood collectives,
// one-sided transfers, group collectives, epochs) are kept apart at the top
// of the tag range and never change.
bool program_tag(int tag) { return tag >= 0 && tag < kEpochTag; }

// Per (sender, receiver): the tags of the messages as the sender's period
// sends them and as the receiver's receives them.
struct Direction {
  std::vector<std::int64_t> sent;
  std::vector<std::int64_t> received;
};

std::map<std::pair<int, int>, Direction> directions(const std::vector<RankRecord>& records) {
  std::map<std::pair<int, int>, Direction> out;
  const auto ranks = static_cast<int>(records.size());
  for (int r = 0; r < ranks; ++r) {
    const RankRecord& record = records[static_cast<std::size_t>(r)];
    if (!record.complete) continue;
    for (const model::Section& section : record.sections) {
      for (const model::CommOp& op : section.comm) {
        if (op.peer < 0 || op.peer >= ranks || op.peer == r || !program_tag(op.tag)) continue;
        if (op.kind == model::CommKind::send) out[{r, op.peer}].sent.push_back(op.tag);
        if (op.kind == model::CommKind::recv) out[{op.peer, r}].received.push_back(op.tag);
      }
    }
  }
  return out;
}

// The amount the received tags are the sent ones moved by; 0 when they are
// the same tags, or not one set moved.
std::int64_t moved_by(Direction d) {
  if (d.sent.empty() || d.sent.size() != d.received.size()) return 0;
  std::sort(d.sent.begin(), d.sent.end());
  std::sort(d.received.begin(), d.received.end());
  const std::int64_t by = d.received.front() - d.sent.front();
  for (std::size_t i = 0; i < d.sent.size(); ++i) {
    if (d.received[i] - d.sent[i] != by) return 0;
  }
  return by;
}

void move_received_tags(RankRecord& receiver, int sender, std::int64_t by) {
  const auto moved = [by](int tag) { return static_cast<int>(tag - by); };
  for (model::Section& section : receiver.sections) {
    for (model::CommOp& op : section.comm) {
      if (op.kind == model::CommKind::recv && op.peer == sender && program_tag(op.tag)) op.tag = moved(op.tag);
    }
  }
  for (ChannelStart& start : receiver.channel_starts) {
    const Channel& c = start.channel;
    if (c.kind == model::CommKind::recv && c.peer == sender && program_tag(c.tag)) start.channel.tag = moved(c.tag);
  }
}

}  // namespace

int pair_step_tags(std::vector<RankRecord>& records) {
  int moved = 0;
  for (const auto& [ranks, direction] : directions(records)) {
    const std::int64_t by = moved_by(direction);
    if (by == 0) continue;
    const auto [sender, receiver] = ranks;
    move_received_tags(records[static_cast<std::size_t>(receiver)], sender, by);
    ++moved;
  }
  return moved;
}

}  // namespace mheta::interpose
