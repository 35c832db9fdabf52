#pragma once
// After `mheta run` captured a profile: each rank's compute in core taken
// from every iteration of the run, not from the few captured periods alone
// (docs/interpose.md, "The compute of the whole run").
#include <filesystem>
#include <string>

#include "model/accounting.hpp"
#include "model/profile.hpp"

namespace mheta::cli {

// Whether the run records its iterations' terms for this by default: with
// capture on, but not `pcontrol`, whose bracket is not a whole iteration
// (under the wall clock a sample of them, run_record_samples).
bool records_run_compute(const std::string& capture);

// How many of the run's iterations those records keep (N to 5N,
// MHETA_ACCOUNTING_SAMPLES), 0 for every one: under the wall clock 64, so
// that between two samples the wrappers idle as in the default capture
// mode (docs/interpose.md, "The compute of the whole run").
int run_record_samples(const std::string& emulate, const std::string& clock);

// Forgets the in-core compute of ranks whose records hold another number of
// iterations than the run's (the profile's `iterations`, or the median over
// the ranks when the profile has none; less the iterations the rank's
// records skip, model::Accounting::skipped), by more than a tenth: their records
// end iterations elsewhere than the captured period does (a boundary rank of
// a wavefront that calls the boundary's function more often), so their
// median is not of the captured iteration. They take the others' ratio, as
// ranks without in-core iterations do. Returns how many were forgotten.
int forget_ranks_of_another_loop(model::Profile& profile, const model::Accounting& run);

// Sets the in-core compute of the profile at `profile` from the run's
// `accounting` records (model/in_core_compute.hpp) and rewrites it, when
// the records' iterations are the captured ones: ended by the program's
// marks, or by the calls that end the captured period (automatic and
// `call:` capture), on ranks that recorded as many of them as the run had
// (above), and no rank's whole-run compute is more than 3x away
// from its captured one (another loop). The capture's pace then becomes the
// run's mean iteration over its median one (model::pace_over_median_iteration),
// when every rank's records are of the captured loop. Says on stderr what
// it did or why not; the profile is left as it was on any problem. Returns
// whether the profile's pace is now the run's (against its median
// iteration); where it is not, the pace is still the capture's.
bool record_run_compute(const std::filesystem::path& profile, const std::filesystem::path& accounting,
                        const std::string& capture);

}  // namespace mheta::cli
