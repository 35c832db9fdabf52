#pragma once
// How each rank's compute varies from one iteration to the next, recorded
// from the capture run's accounting (docs/model.md, "Compute that varies
// from iteration to iteration").
//
// A rank's compute is not the same every iteration: the OS, other
// processes, caches and, on an oversubscribed machine, the ranks that
// share its core make one iteration's take longer than another's. Where
// ranks synchronize every iteration, each iteration lasts as long as the
// slowest rank's compute *in that iteration*, so the run's mean iteration
// is the mean of the per-iteration maxima, above the maximum of the ranks'
// medians the model otherwise replays (8 ranks on 2 cores: node_reduce's
// slowest rank computed a median 3.69 ms, the per-iteration maximum over
// the ranks averaged 4.42 ms).
#include <cstddef>
#include <vector>

#include "model/accounting.hpp"
#include "model/profile.hpp"

namespace mheta::model {

// Iterations sampled at most (spread evenly over the run), and at least
// for a sample to be recorded.
inline constexpr std::size_t kVariationSamples = 64;
inline constexpr std::size_t kMinVariationSamples = 8;

// Sets every rank's `compute_variation` from the records of the capture run
// `run` (the same program, distribution, emulation and clock): the
// iterations of the run every rank recorded, after each rank's first
// record (which holds what came before the loop), aligned by the run's
// iteration (a rank's records start after its `skipped` ones), except
// those in which a rank that runs in core did I/O (a capture run forced out
// of core before it went back in core); up to kVariationSamples of them
// evenly spread, each rank's compute in them
// over its median compute in all of those iterations (1 for a rank that
// computes nothing), scaled so that their mean is the mean over all of
// those iterations (a stride can fall on a periodic heavy iteration more
// or less often than the run does). Records none, and clears any, when fewer than
// kMinVariationSamples iterations are common to every rank or the records
// are of another clock. Returns the number of samples recorded. Throws
// std::invalid_argument when the records have another number of ranks.
std::size_t record_compute_variation(Profile& profile, const Accounting& run);

// The largest of the ranks' mean factors in `profile`'s compute_variation:
// how much longer than the ranks' median compute the prediction prices the
// run's on average (1 without variation).
double mean_compute_variation(const Profile& profile);

}  // namespace mheta::model
