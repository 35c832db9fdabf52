#pragma once
// Pairs sends with receives the way MPI does: the k-th message from src to
// dst with a tag is received by the k-th receive at dst from src with that
// tag (MPI's non-overtaking rule).
#include <span>

namespace mheta::model {

struct MessageEnd {
  int src = 0;
  int dst = 0;
  int tag = 0;
  int op = 0;  // index of the send or receive in the model's op list
  auto operator<=>(const MessageEnd&) const = default;
};

struct MatchResult {
  int unmatched = 0;         // sends and receives left without a partner
  int first_unmatched = -1;  // op index of one of them, for error messages
};

// Sorts both spans in place (no allocation) and sets partner[recv.op] =
// send.op for every matched pair. Unmatched receives keep partner -1.
MatchResult match_messages(std::span<MessageEnd> sends, std::span<MessageEnd> recvs, std::span<int> partner);

// The same for ends already in channel order (src, dst, tag, op).
MatchResult match_sorted_messages(std::span<const MessageEnd> sends, std::span<const MessageEnd> recvs,
                                  std::span<int> partner);

// Puts `ends` in channel order in time linear in their number and the
// ranks (every src in [0, ranks)): a counting sort by src through
// `scratch` (as many entries as `ends`; `counts` ranks + 1), then each
// src's few ends sorted on their own. No allocation: the model re-matches
// messages with it whenever the ranks that own no rows change.
void sort_by_channel(std::span<MessageEnd> ends, int ranks, std::span<MessageEnd> scratch, std::span<int> counts);

}  // namespace mheta::model
