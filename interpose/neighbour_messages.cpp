#include "interpose/neighbour_messages.hpp"

#include <algorithm>

namespace mheta::interpose {

namespace {

// One message for each neighbour that is another rank, in the neighbours'
// order.
std::vector<NeighbourMessage> messages_of(int self, std::span<const int> peers, std::span<const std::int64_t> bytes) {
  std::vector<NeighbourMessage> out;
  out.reserve(peers.size());
  for (std::size_t j = 0; j < peers.size() && j < bytes.size(); ++j) {
    if (peers[j] >= 0 && peers[j] != self) out.push_back({peers[j], bytes[j]});
  }
  return out;
}

}  // namespace

NeighbourMessages neighbour_messages(int self, std::span<const int> destinations,
                                     std::span<const std::int64_t> send_bytes, std::span<const int> sources,
                                     std::span<const std::int64_t> recv_bytes) {
  NeighbourMessages m{messages_of(self, destinations, send_bytes), messages_of(self, sources, recv_bytes)};
  std::reverse(m.receives.begin(), m.receives.end());
  return m;
}

}  // namespace mheta::interpose
