#include "model/strided_sends.hpp"

#include <algorithm>

namespace mheta::model {

StridedSends strided_sends(const Profile& profile) {
  StridedSends found;
  for (const RankProfile& rank : profile.ranks) {
    for (const Section& section : rank.sections) {
      for (const CommOp& op : section.comm) {
        if (op.segments <= 1) continue;
        ++found.sends;
        found.segments = std::min(INT64_MAX - op.segments, found.segments) + op.segments;
      }
    }
  }
  return found;
}

std::string strided_send_warning(const Profile& profile) {
  const StridedSends found = strided_sends(profile);
  if (found.sends == 0 || profile.clock != ProfileClock::wall) return "";
  return std::to_string(found.sends) + " of the captured iteration's sends are of non-contiguous datatypes (" +
         std::to_string(found.segments) +
         " contiguous blocks in all): they are priced as their bytes sent in one block, which an MPI moves faster, "
         "so the prediction may be short by the difference (docs/model.md, \"Assumptions and limits\")";
}

}  // namespace mheta::model
