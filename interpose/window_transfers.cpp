#include "interpose/window_transfers.hpp"

#include <cstddef>

#include "interpose/message_channels.hpp"

namespace mheta::interpose {

namespace {

using model::CommKind;
using model::CommOp;

struct Place {
  int section = 0;
  int comm = 0;
};

bool before(const Place& a, const Place& b) {
  return a.section < b.section || (a.section == b.section && a.comm < b.comm);
}

std::vector<Place> collectives_of(const RankRecord& r) {
  std::vector<Place> places;
  for (std::size_t s = 0; s < r.sections.size(); ++s) {
    const std::vector<CommOp>& comm = r.sections[s].comm;
    for (std::size_t j = 0; j < comm.size(); ++j) {
      if (comm[j].kind == CommKind::collective) places.push_back({static_cast<int>(s), static_cast<int>(j)});
    }
  }
  return places;
}

// The number of the first collective at or after `at`; -1 when none is.
int closing_collective(const std::vector<Place>& collectives, Place at) {
  for (std::size_t k = 0; k < collectives.size(); ++k) {
    if (!before(collectives[k], at)) return static_cast<int>(k);
  }
  return -1;
}

bool is_transfer(const CommOp& op) { return op.kind == CommKind::send && op.tag == kWindowTag; }

// What changes in a rank's period, by section and operation as captured:
// operations left out, and receives added just before an operation.
struct Edits {
  std::vector<std::vector<bool>> drop;
  std::vector<std::vector<std::vector<CommOp>>> added;

  explicit Edits(const RankRecord& r) {
    for (const model::Section& s : r.sections) {
      drop.emplace_back(s.comm.size(), false);
      added.emplace_back(s.comm.size());
    }
  }
};

// Applies `edits` to `r`. A non-blocking send (or collective) completed
// before an operation is still completed before it, ahead of any receive
// added there: the fence that completes a rank's own transfers also waits
// for those it is the target of, in either order.
void apply(RankRecord& r, const Edits& edits) {
  std::vector<std::vector<int>> new_place(r.sections.size());
  std::vector<std::vector<CommOp>> comm(r.sections.size());
  for (std::size_t s = 0; s < r.sections.size(); ++s) {
    const std::vector<CommOp>& old = r.sections[s].comm;
    new_place[s].resize(old.size() + 1);
    for (std::size_t j = 0; j < old.size(); ++j) {
      new_place[s][j] = static_cast<int>(comm[s].size());
      comm[s].insert(comm[s].end(), edits.added[s][j].begin(), edits.added[s][j].end());
      if (!edits.drop[s][j]) comm[s].push_back(old[j]);
    }
    new_place[s][old.size()] = static_cast<int>(comm[s].size());
  }
  for (std::size_t s = 0; s < r.sections.size(); ++s) r.sections[s].comm = std::move(comm[s]);
  for (model::Section& section : r.sections) {
    for (CommOp& op : section.comm) {
      if (op.kind == CommKind::recv || !op.nonblocking || op.completed_section < 0 ||
          static_cast<std::size_t>(op.completed_section) >= new_place.size()) {
        continue;
      }
      const std::vector<int>& places = new_place[static_cast<std::size_t>(op.completed_section)];
      if (op.completed_comm >= 0 && static_cast<std::size_t>(op.completed_comm) < places.size()) {
        op.completed_comm = places[static_cast<std::size_t>(op.completed_comm)];
      }
    }
  }
}

}  // namespace

WindowTransfers pair_window_transfers(std::vector<RankRecord>& records) {
  WindowTransfers result;
  std::vector<std::vector<Place>> collectives;
  std::vector<Edits> edits;
  for (const RankRecord& r : records) {
    collectives.push_back(collectives_of(r));
    edits.emplace_back(r);
  }
  const int size = static_cast<int>(records.size());
  for (int origin = 0; origin < size; ++origin) {
    const RankRecord& from = records[static_cast<std::size_t>(origin)];
    for (std::size_t s = 0; s < from.sections.size(); ++s) {
      for (std::size_t j = 0; j < from.sections[s].comm.size(); ++j) {
        const CommOp& op = from.sections[s].comm[j];
        if (!is_transfer(op)) continue;
        // The fence that ends the transfer's epoch: the collective recorded
        // where it completed. The target's fence of the same number is the
        // same call (fences are numbered among the collectives).
        const int k = op.completed_section < 0 ? -1
                                               : closing_collective(collectives[static_cast<std::size_t>(origin)],
                                                                    {op.completed_section, op.completed_comm});
        const int target = op.peer;
        const bool known = k >= 0 && target >= 0 && target < size && target != origin &&
                           records[static_cast<std::size_t>(target)].complete &&
                           static_cast<std::size_t>(k) < collectives[static_cast<std::size_t>(target)].size();
        if (!known) {
          edits[static_cast<std::size_t>(origin)].drop[s][j] = true;
          ++result.dropped;
          continue;
        }
        const Place at = collectives[static_cast<std::size_t>(target)][static_cast<std::size_t>(k)];
        CommOp receive;
        receive.kind = CommKind::recv;
        receive.peer = origin;
        receive.bytes = op.bytes;
        receive.tag = kWindowTag;
        edits[static_cast<std::size_t>(target)]
            .added[static_cast<std::size_t>(at.section)][static_cast<std::size_t>(at.comm)]
            .push_back(receive);
        ++result.paired;
      }
    }
  }
  for (std::size_t r = 0; r < records.size(); ++r) apply(records[r], edits[r]);
  return result;
}

}  // namespace mheta::interpose
