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

std::string strided_send_warning(const Profile& profile, const Cluster& cluster) {
  const StridedSends found = strided_sends(profile);
  if (found.sends == 0 || profile.clock != ProfileClock::wall || cluster.network.segment_s) return "";
  return std::to_string(found.sends) + " of the captured iteration's sends are of non-contiguous datatypes (" +
         std::to_string(found.segments) +
         " contiguous blocks in all) and the cluster prices no block (measured before mheta microbench measured "
         "it): they are priced as their bytes sent in one block, which an MPI moves faster, so the prediction may "
         "be short; measure the cluster again (docs/model.md, \"Messages of non-contiguous datatypes\")";
}

}  // namespace mheta::model
