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

}  // namespace mheta::model
