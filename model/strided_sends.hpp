#pragma once
// Sends of non-contiguous datatypes in a profile (model::CommOp::segments):
// the model prices their bytes as if contiguous (docs/model.md,
// "Assumptions and limits"), so the user is told where that matters.
#include <cstddef>
#include <cstdint>
#include <string>

#include "model/profile.hpp"

namespace mheta::model {

// The captured iteration's sends, over every rank, whose data lies in more
// than one contiguous block, and those blocks in all.
struct StridedSends {
  std::size_t sends = 0;
  std::int64_t segments = 0;
};
StridedSends strided_sends(const Profile& profile);

// What a user of a wall-clock profile with such sends should know, or ""
// (none, or a profile of the virtual clock, whose emulated network prices
// a message by its bytes whatever its datatype, as the model does).
std::string strided_send_warning(const Profile& profile);

}  // namespace mheta::model
