#pragma once
// results.json of `mheta validate`: per distribution, the predicted and the
// measured seconds per iteration, and the accuracy summary of MHETA §5.2
// (Fig 9: min / mean / max of |p - a| / min(p, a)). `mheta report` reads it.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "model/json_fields.hpp"

namespace mheta::cli {

inline constexpr const char* kValidationFormat = "mheta-validation/1";

struct ValidationEntry {
  std::string name;  // "Blk", "Blk->I-C 1/2", ..., "GBS"
  std::string kind;  // "spectrum" or "searched"
  std::vector<std::int64_t> rows;
  double predicted_s = 0;  // model's seconds per iteration
  model::Json prediction;  // the model's per-rank breakdown (mheta predict --json)
  bool measured = false;
  double actual_s = 0;                    // mean of the steady-state iterations
  std::vector<double> iteration_seconds;  // every iteration, the first included
  std::string check;                      // the program's own check: PASS / FAIL
};

struct ValidationResults {
  model::Json settings;  // how the results were made; a rerun must match them to resume
  std::string profile;
  std::string cluster;
  std::vector<ValidationEntry> entries;
};

// MHETA §5.2.1: |predicted - actual| / min(predicted, actual).
double prediction_error(double predicted, double actual);

struct ValidationSummary {
  int distributions = 0;
  int measured = 0;
  double error_min = 0, error_mean = 0, error_max = 0;
  std::string predicted_best;  // smallest predicted among the measured
  std::string measured_best;   // smallest actual
  bool predicted_best_is_measured_best = false;
  double predicted_best_excess = 0;                   // actual(predicted best) / actual(measured best) - 1
  std::string spectrum_best;                          // smallest actual of the spectrum
  std::optional<double> spectrum_best_over_searched;  // actual(spectrum best) / actual(GBS) - 1
};

// Over the measured entries; zeros and empty names when none is measured.
ValidationSummary summarize(const ValidationResults& results);

// The whole document: settings, entries (each with its error when
// measured) and the summary.
model::Json validation_to_json(const ValidationResults& results);
// Throws FormatError naming the file and the field.
ValidationResults read_validation_results(const std::filesystem::path& path);
// Atomically (model/text_file.hpp), so an interrupted run leaves the last
// complete state to resume from.
void write_validation_results(const std::filesystem::path& path, const ValidationResults& results);

}  // namespace mheta::cli
