#pragma once
// results.json of `mheta validate`: per distribution, the predicted and the
// measured seconds per iteration, and the accuracy summary of MHETA §5.2
// (Fig 9: min / mean / max of |p - a| / min(p, a)). `mheta report` reads it.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/accounting.hpp"
#include "model/json_fields.hpp"

namespace mheta::cli {

inline constexpr const char* kValidationFormat = "mheta-validation/3";
// Results written before repeats: one run per distribution.
inline constexpr const char* kValidationFormatOneRun = "mheta-validation/1";
// Results written before attribution: no per-rank terms measured.
inline constexpr const char* kValidationFormatRepeats = "mheta-validation/2";

// One real run of the program under one distribution.
struct ValidationRun {
  int round = 0;                          // 0-based round of the interleaved protocol
  double actual_s = 0;                    // steady state: the slowest rank's median iteration after the first
  std::vector<double> iteration_seconds;  // every iteration, the first included
  std::string check;                      // the program's own check: PASS / FAIL
  // Where actual_s comes from: "printed" (the program's iteration lines) or
  // "accounted" (the interposer's records, for programs that print none).
  std::string source = "printed";
  std::optional<double> accounted_s;  // the interposer's records' time, when it kept them
  // Under the wall clock, the share of the iterations a rank waited for a
  // core (model::queued_share): the machine's part of actual_s.
  std::optional<double> queued_share;
  // Per rank, each term's median over the iterations after the first, from
  // the interposer's records (model/accounting.hpp); empty without them.
  std::vector<model::IterationTerms> ranks;
};

// The model's and the measurement's term of one rank that differ the most:
// compute or I/O of any rank, or communication and waiting together of the
// bottleneck (the rank measured to wait least; the others' waiting follows
// from its terms). Together, because the model calls the network's share of
// a receive or a collective communication and the interposer sees it inside
// the call that waits (docs/validate.md, "Attribution").
struct TermError {
  std::string term;  // "compute", "I/O", "communication and waiting"
  int rank = 0;
  double predicted_s = 0;
  double measured_s = 0;
};

struct ValidationEntry {
  std::string name;  // "Blk", "Blk->I-C 1/2", ..., "GBS"
  std::string kind;  // "spectrum", "searched", or "cluster" (validating across clusters)
  std::vector<std::int64_t> rows;
  // kind "cluster": the emulation it runs under and the cluster.json
  // measured under it, which the prediction used (empty otherwise).
  std::string emulate;
  std::string cluster;
  double predicted_s = 0;  // model's seconds per iteration
  model::Json prediction;  // the model's per-rank breakdown (mheta predict --json)
  std::vector<ValidationRun> runs;  // the repeated measurements, in the order they were made

  bool measured() const { return !runs.empty(); }
  // The median of the runs' steady-state times (0 when not measured).
  double actual_s() const;
  // The spread of the runs: (max - min) / median; 0 with fewer than 2 runs.
  double relative_spread() const;
  double actual_min_s() const;
  double actual_max_s() const;
  // "PASS" when every run passed, else the first other answer.
  std::string check() const;
  // Per rank, each term's median over the runs that have records; empty
  // when none has.
  std::vector<model::IterationTerms> measured_ranks() const;
  // The model's per-rank terms (from `prediction`); empty when it has none.
  std::vector<model::IterationTerms> predicted_ranks() const;
  // The term whose prediction is furthest from its measurement, over the
  // ranks; none without measured terms.
  std::optional<TermError> largest_term_error() const;
};

struct ValidationResults {
  model::Json settings;  // how the results were made; a rerun must match them to resume
  std::string profile;
  std::string cluster;
  std::vector<ValidationEntry> entries;
  // Per rank, the capture runs' own steady terms (each run's median over
  // its iterations after the first, then the median over the runs): what
  // the machine gave the program while the profile was taken. Empty
  // without the interposer's records.
  std::vector<model::IterationTerms> captured_ranks;
};

// Per rank, each term's median over several runs' per-rank terms (a run
// with fewer ranks leaves the later ranks to the others).
std::vector<model::IterationTerms> median_ranks(const std::vector<std::vector<model::IterationTerms>>& runs);

// MHETA §5.2.1: |predicted - actual| / min(predicted, actual).
double prediction_error(double predicted, double actual);

struct ValidationSummary {
  int distributions = 0;
  int measured = 0;
  // The noise floor: the median, over the distributions measured more than
  // once, of the spread of their repeated measurements ((max - min) /
  // median); and the largest such spread. An error below the noise floor
  // cannot be told from the machine's noise.
  std::optional<double> noise_floor;
  std::optional<double> noise_max;
  int errors_beyond_noise = 0;  // distributions whose error exceeds their own spread
  double error_min = 0, error_mean = 0, error_max = 0;
  std::string predicted_best;  // smallest predicted among the measured
  std::string measured_best;   // smallest actual
  bool predicted_best_is_measured_best = false;
  double predicted_best_excess = 0;                   // actual(predicted best) / actual(measured best) - 1
  std::string spectrum_best;                          // smallest actual of the spectrum
  std::optional<double> spectrum_best_over_searched;  // actual(spectrum best) / actual(GBS) - 1
  // Blk against the predicted best, measured: actual(Blk) / actual(predicted best).
  std::optional<double> chosen_speedup_over_blk;
  // Of the distribution with the largest error, the term that contributes
  // most to it (when its runs were accounted).
  std::string worst_distribution;
  std::optional<TermError> worst_term;
  // How far the capture runs' compute was from the Blk runs' (the same
  // distribution, the same program): the median over ranks of captured /
  // measured - 1. Beyond the noise floor it says the profile was taken in
  // another state of the machine than the runs were measured in, which
  // repeating the runs cannot show (docs/validate.md, "Capture drift").
  std::optional<double> capture_drift;
  // Under the wall clock: the largest over the distributions of the median
  // over their runs of the share of an iteration a rank waited for a core
  // (held by other processes, or by more ranks than cores). Errors of that
  // size are the machine's as much as the model's.
  std::optional<double> machine_share;
};

// The median of `values` (the mean of the two middle ones for an even count);
// 0 for none.
double median_of(std::vector<double> values);

// Over the measured entries; zeros and empty names when none is measured.
ValidationSummary summarize(const ValidationResults& results);

// The whole document: settings, entries (each with its error when
// measured) and the summary.
model::Json validation_to_json(const ValidationResults& results);
// Throws FormatError naming the file and the field. Reads results of the
// first format (one run per distribution) and the second (no attribution) too.
ValidationResults read_validation_results(const std::filesystem::path& path);
// Atomically (model/text_file.hpp), so an interrupted run leaves the last
// complete state to resume from.
void write_validation_results(const std::filesystem::path& path, const ValidationResults& results);

}  // namespace mheta::cli
