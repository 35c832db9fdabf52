#pragma once
// The compute of ranks that run in core, measured rather than taken from the
// out-of-core capture (docs/model.md, "Compute in core").
//
// The paper instruments one iteration forced out of core (§4.1.1), and
// mheta does too: every rank's I/O costs are measured that way. Its compute
// T_Phi is then the sweep of ICLAs just read into memory. A rank that runs
// in core sweeps its whole block from memory instead, which costs more CPU
// when the block has left the caches between iterations (ranks sharing a
// node's caches, blocks larger than them): jacobi on 8 emulated ranks
// measured 16-33 % more compute in core than the capture's. The capture
// run goes back in core after the captured iteration, and its accounting
// records that compute; the model uses it for ranks in core under δ'.
#include <cstdint>
#include <optional>
#include <vector>

#include "model/accounting.hpp"
#include "model/profile.hpp"

namespace mheta::model {

// In-core iterations a rank needs in the capture run for its in-core compute
// to be recorded: one iteration is one noisy sample on a shared machine.
inline constexpr std::int64_t kMinInCoreIterations = 3;

// Throws std::invalid_argument when the records have another number of
// ranks than the profile.
void require_same_ranks(const Profile& profile, const Accounting& run);

// A rank's compute in the iterations, after its first record, in which it
// did no I/O and some compute: its iterations in core.
std::vector<double> in_core_compute_of(const std::vector<IterationTerms>& records);

// Whether the rank has at least kMinInCoreIterations of them: it runs in
// core (after the capture run forced it out of core).
bool runs_in_core(const std::vector<IterationTerms>& records);

// Sets each rank's `in_core_compute_s` of a profile forced out of core to
// the median compute of the iterations, after the first, that the rank did
// without any I/O in the run `run` recorded (the capture run itself: the
// same program, distribution, emulation and clock). A rank with fewer than
// kMinInCoreIterations such iterations keeps none, as do all ranks when the
// profile was not forced out of core (its compute is in core already) or
// the records are of another clock. Returns how many ranks got one. Throws
// std::invalid_argument when the records have another number of ranks.
int record_in_core_compute(Profile& profile, const Accounting& run);

// Per rank, how much more (or less) compute a whole iteration took in core
// than captured: in_core_compute_s / the captured compute. Ranks without an
// in-core measurement (out of core at the captured distribution) take the
// median of the others' ratios, since it is the program's sweep on this
// machine that differs, not the rank; 1 when no rank has one.
std::vector<double> in_core_compute_ratios(const Profile& profile);

// How typical of the run the iteration is that a profile with the run's
// in-core compute prices: per rank, the mean total of its iterations after
// the first over their median total, leaving out, for a rank that runs in
// core, the iterations in which it did I/O (the capture forced it out of
// core); the furthest from 1 over the ranks with kMinInCoreIterations such
// iterations or more. None when no rank has them. It replaces the capture's
// pace (the mean over the captured periods' median) once the profile's
// compute is the median of the run's iterations: a loop whose iterations
// grow steadily then has a pace near 1, as the median iteration times
// their count is the run, while one that doubles late in the run stays
// above 1.
std::optional<double> pace_over_median_iteration(const Accounting& run);

}  // namespace mheta::model
