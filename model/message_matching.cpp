#include "model/message_matching.hpp"

#include <algorithm>
#include <tuple>

namespace mheta::model {

MatchResult match_messages(std::span<MessageEnd> sends, std::span<MessageEnd> recvs, std::span<int> partner) {
  // Op indices grow in program order within a rank, so sorting by
  // (src, dst, tag, op) puts each channel's messages in the order sent.
  std::sort(sends.begin(), sends.end());
  std::sort(recvs.begin(), recvs.end());
  return match_sorted_messages(sends, recvs, partner);
}

void sort_by_channel(std::span<MessageEnd> ends, int ranks, std::span<MessageEnd> scratch, std::span<int> counts) {
  std::fill(counts.begin(), counts.begin() + ranks + 1, 0);
  for (const MessageEnd& e : ends) ++counts[static_cast<std::size_t>(e.src) + 1];
  for (int r = 0; r < ranks; ++r) counts[static_cast<std::size_t>(r) + 1] += counts[static_cast<std::size_t>(r)];
  // Stable: ends of one src keep their order, usually already sorted.
  for (const MessageEnd& e : ends) scratch[static_cast<std::size_t>(counts[static_cast<std::size_t>(e.src)]++)] = e;
  std::copy(scratch.begin(), scratch.begin() + static_cast<std::ptrdiff_t>(ends.size()), ends.begin());
  std::size_t begin = 0;
  for (int r = 0; r < ranks; ++r) {
    const auto end = static_cast<std::size_t>(counts[static_cast<std::size_t>(r)]);
    std::sort(ends.begin() + static_cast<std::ptrdiff_t>(begin), ends.begin() + static_cast<std::ptrdiff_t>(end));
    begin = end;
  }
}

MatchResult match_sorted_messages(std::span<const MessageEnd> sends, std::span<const MessageEnd> recvs,
                                  std::span<int> partner) {
  for (const MessageEnd& r : recvs) partner[static_cast<std::size_t>(r.op)] = -1;
  auto channel = [](const MessageEnd& e) { return std::tie(e.src, e.dst, e.tag); };
  MatchResult result;
  auto note_unmatched = [&](const MessageEnd& e) {
    ++result.unmatched;
    if (result.first_unmatched < 0) result.first_unmatched = e.op;
  };
  std::size_t s = 0;
  std::size_t r = 0;
  while (s < sends.size() || r < recvs.size()) {
    if (r == recvs.size() || (s < sends.size() && channel(sends[s]) < channel(recvs[r]))) {
      note_unmatched(sends[s++]);
    } else if (s == sends.size() || channel(recvs[r]) < channel(sends[s])) {
      note_unmatched(recvs[r++]);
    } else {
      partner[static_cast<std::size_t>(recvs[r].op)] = sends[s].op;
      ++s;
      ++r;
    }
  }
  return result;
}

}  // namespace mheta::model
