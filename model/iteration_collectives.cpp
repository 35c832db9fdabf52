#include "model/iteration_collectives.hpp"

#include <algorithm>

namespace mheta::model {

std::optional<std::vector<IterationCollective>> iteration_collectives(const Profile& profile) {
  std::vector<IterationCollective> calls;
  for (std::size_t r = 0; r < profile.ranks.size(); ++r) {
    std::size_t k = 0;
    for (const Section& section : profile.ranks[r].sections) {
      for (const CommOp& op : section.comm) {
        if (op.kind != CommKind::collective) continue;
        const std::optional<double> inside =
            op.inside_s >= 0 && !op.nonblocking ? std::optional<double>(op.inside_s) : std::nullopt;
        if (r == 0) {
          calls.push_back({op.collective, op.bytes, inside});
        } else if (k >= calls.size() || calls[k].op != op.collective) {
          return std::nullopt;
        } else {
          IterationCollective& call = calls[k];
          call.bytes = std::max(call.bytes, op.bytes);
          call.inside_s = call.inside_s && inside ? std::optional<double>(std::min(*call.inside_s, *inside))
                                                  : std::nullopt;
        }
        ++k;
      }
    }
    if (k != calls.size()) return std::nullopt;
  }
  return calls;
}

}  // namespace mheta::model
