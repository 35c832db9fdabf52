#pragma once
// accounting.json: where each rank's time went in every iteration of a run,
// written by the interposer's accounting service (MHETA_ACCOUNTING,
// docs/interpose.md "Accounting") and read by `mheta validate`, which sets
// it beside the model's per-rank terms (RankBreakdown). No MPI here.
//
// Per rank and iteration: compute (between MPI calls), I/O (in MPI-IO calls
// and in waits that completed MPI-IO requests), communication (in calls
// that send or post), waiting (in calls that complete receives, requests
// or collectives), and the iteration's total, in the run's clock: virtual
// when the virtual clock timed the run, wall otherwise.
#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/json_fields.hpp"

namespace mheta::model {

inline constexpr std::string_view kAccountingFormat = "mheta-accounting/1";

// The terms of one iteration of one rank, seconds; the order of the file's
// arrays (kTermNames).
struct IterationTerms {
  double compute_s = 0;
  double io_s = 0;
  double comm_s = 0;
  double wait_s = 0;
  double total_s = 0;

  static constexpr int kCount = 5;
  std::array<double, kCount> values() const { return {compute_s, io_s, comm_s, wait_s, total_s}; }
  static IterationTerms from(const std::array<double, kCount>& v) { return {v[0], v[1], v[2], v[3], v[4]}; }
};

inline constexpr std::array<std::string_view, IterationTerms::kCount> kTermNames = {"compute", "io", "comm", "wait",
                                                                                   "total"};

struct Accounting {
  std::string clock = "wall";     // "wall" or "virtual"
  std::string boundary = "none";  // what ended the iterations: "mark", "pcontrol", "call" or "none"
  // boundary "call": which, "MPI_Name:k" (every k-th call of MPI_Name), or
  // one per rank separated by commas where the ranks' differ
  // (model/call_list.hpp).
  std::string call;
  std::vector<std::vector<IterationTerms>> ranks;  // [rank][iteration], the first iteration included
  // [rank][iteration], beside `ranks`: how long of the iteration the rank's
  // thread was ready to run but waited for a core (the kernel's run-queue
  // delay), wall seconds whichever the clock; inside the terms, not one of
  // them. Empty for a rank whose records have none (written before they
  // were kept, or on a kernel without schedstat).
  std::vector<std::vector<double>> queued;
  // [rank]: the run's iterations ended before the rank's records begin
  // (empty or 0: none). An automatic capture may count another loop first
  // (an inner sweep that repeats early) and then the one the time goes to;
  // records ended by the first are dropped, and the rank's records then
  // begin at this iteration of the second (its first record, as ever, holds
  // what came before).
  std::vector<std::int64_t> skipped;
  // [rank]: the records after the first are the run's iterations that are
  // multiples of this, after the skipped ones: a sampled run
  // (MHETA_ACCOUNTING_SAMPLES) keeps N to 5N of them (empty or 1: every
  // iteration). Record k >= 1 of rank r is the run's iteration
  // recorded_iteration(skipped_r, every_r, k); record 0 is iteration skipped_r.
  std::vector<std::int64_t> every;
};

// Rank r's skipped iterations (Accounting::skipped), 0 where none is said.
std::int64_t skipped_iterations(const Accounting& accounting, std::size_t r);
// Rank r's sampling stride (Accounting::every), 1 where none is said.
std::int64_t sampled_every(const Accounting& accounting, std::size_t r);
// The run's iteration record k holds, of a rank whose records skip
// `skipped` iterations and keep every `every`-th after the first:
// `skipped` for k = 0, else the k-th multiple of `every` above `skipped`.
std::int64_t recorded_iteration(std::int64_t skipped, std::int64_t every, std::size_t k);
// The run's iteration rank r's last record holds (its skipped ones when it
// has no record after the first).
std::int64_t last_recorded_iteration(const Accounting& accounting, std::size_t r);
// The record of rank r that holds the run's iteration `iteration`, if any.
std::optional<std::size_t> record_of_iteration(const Accounting& accounting, std::size_t r, std::int64_t iteration);

Json accounting_to_json(const Accounting& accounting);
// Throws FormatError naming `source` and the field.
Accounting parse_accounting(std::string_view text, std::string_view source);
Accounting read_accounting(const std::filesystem::path& path);
// Atomically (text_file.hpp).
void write_accounting(const std::filesystem::path& path, const Accounting& accounting);

// The median of `values` (the mean of the two middle ones for an even
// count); 0 for none.
double median_of(std::vector<double> values);

// One rank's steady state: each term's median over its iterations after the
// first (the first creates or opens the data); with one iteration, that one.
// The medians are taken term by term, so they need not add up to the total's.
IterationTerms steady_terms(const std::vector<IterationTerms>& iterations);

// The share of the steady-state iterations the ranks waited for a core
// (run queue): the largest over the ranks of their queued seconds over
// their total, the first iteration excluded; none when no rank has both,
// and under the virtual clock, whose times hold none of it. Under the wall
// clock it is the time the machine took from the program (other processes,
// more ranks than cores).
std::optional<double> queued_share(const Accounting& accounting);

// The run's seconds per steady-state iteration from the records: the largest
// over the ranks of each rank's median total (ranks wait for each other, so
// each rank's typical iteration is the run's). 0 when no rank has a record.
double accounted_iteration_seconds(const Accounting& accounting);

}  // namespace mheta::model
