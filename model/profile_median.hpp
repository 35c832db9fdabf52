#pragma once
// Several captures of one iteration made one (docs/model.md, "Several
// captures"). The paper instruments a single iteration (§4.1.1); on a
// machine shared with other work, one iteration is one sample of every
// term: jacobi on 8 emulated IO ranks captured 25.6 ms of I/O on a rank
// whose every other iteration took 2.1-2.6 ms, and the model carried that
// into every prediction (324 % mean error). The median of each time over a
// few captures keeps the program's costs and drops such a sample.
#include <string>
#include <vector>

#include "model/profile.hpp"

namespace mheta::model {

// Empty when `a` and `b` captured the same iteration's shape: ranks and
// distribution, variables, sections and stages, each stage's I/O (variable,
// request counts and bytes, prefetch) and the messages (kind, peer, bytes,
// tag, collective, variable read from); else where they first differ
// ("rank 2 section 1: 3 messages against 4").
std::string shape_difference(const Profile& a, const Profile& b);

// The first capture with every time replaced by its median over the
// captures: each stage's compute, each I/O's read and write seconds and
// overlapped compute, and each rank's in-core compute (over the captures
// that measured it). Throws std::invalid_argument when `captures` is empty
// or two of them differ in shape.
Profile median_profile(const std::vector<Profile>& captures);

}  // namespace mheta::model
