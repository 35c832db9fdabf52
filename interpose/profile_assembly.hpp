#pragma once
// Assembles the profile.json document from every rank's captured record:
// the variables (merged by name), the distribution the run used and each
// rank's sections. No MPI: rank 0 runs it on the gathered records.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interpose/file_variables.hpp"
#include "interpose/message_channels.hpp"
#include "model/profile.hpp"

namespace mheta::interpose {

// One rank's capture, as sent to rank 0.
struct RankRecord {
  int rank = 0;
  bool complete = false;                 // a whole iteration was captured
  std::vector<model::Section> sections;  // StageIo::variable indexes `variables`
  std::vector<VariableSeen> variables;
  // Where the captured period begins in each channel it has messages of
  // (message_channels.hpp); empty when not known.
  std::vector<ChannelStart> channel_starts;
  std::int64_t iterations = 0;  // iterations seen so far (marks or k-th calls)
  // Automatic detection: how often the captured loop repeated, and the share
  // of the rank's run (MPI_Init to MPI_Finalize) it took; < 0: another mode.
  std::int64_t repetitions = -1;
  double time_share = -1;
  double pace = -1;  // model::CaptureConfidence::pace; < 0: not measured
  // Automatic detection, seconds of the clock it timed loops with (< 0:
  // another mode): the captured loop's time; on a rank that found no loop,
  // its compute between calls.
  double loop_s = -1;
  double compute_without_loop_s = -1;
  std::string host;
  std::uint64_t memory_budget_bytes = 0;
  bool virtual_clock = false;  // the times are the virtual clock's (docs/emulation.md)
  // Threads other than the one that called MPI_Init made MPI calls
  // (MPI_THREAD_MULTIPLE): the rank's calls were one sequence of several
  // threads', in an order that changes from iteration to iteration.
  bool other_threads = false;
  model::Slowdown slowdown;    // the emulated factors compute and I/O ran at (1: the machine's)
};

model::Json rank_record_to_json(const RankRecord& record);
RankRecord rank_record_from_json(const model::Json& json);

struct AssemblyInputs {
  std::string program;
  std::int64_t global_rows = 0;        // MHETA_ROWS, 0 = unknown
  std::string dist_path;               // MHETA_DIST, empty = none
  std::int64_t stated_iterations = 0;  // MHETA_ITERATIONS, 0 = not stated
  std::vector<double> row_weights;     // MHETA_ROW_WEIGHTS as read, empty = none
};

// Ranks that take no part in the loop the others captured: a ping-pong
// between two of eight ranks, the other six waiting at the final barrier.
// Such a rank finds no loop of its own and spends its run waiting, and the
// others' captured iterations send it nothing, receive nothing from it and
// call no collective (which it would have to join). Each incomplete record
// that is one gets an empty iteration and counts as complete; the ranks
// admitted are returned. A rank that computes through the loop without a
// call (between calls for more than kIdleComputeShare of the time the
// longest captured loop took) is not idle: its iteration is unknown, and it
// stays incomplete.
inline constexpr double kIdleComputeShare = 0.05;
std::vector<int> admit_idle_ranks(std::vector<RankRecord>& records);

// Whether the ranks' captured iterations fit together, as `mheta predict`
// will ask: every message paired, no wait that never ends. Each rank
// captures its own period; where a loop's messages change from one
// iteration to the next (a master serving whichever worker answers first)
// the periods need not pair up, and the user is better told at capture
// than by every later prediction. The problem, or nothing.
std::optional<std::string> iterations_misfit(const model::Profile& profile);

// Where the profile's `iterations` comes from (its `iterations_source`).
enum class IterationSource {
  stated,    // MHETA_ITERATIONS (`mheta run --iterations`)
  counted,   // the iteration marks (or MPI_Pcontrol(1) calls) of the whole run, counted at MPI_Finalize
  captured,  // the iterations seen when the capture ended: the run's own count is unknown
};

std::string_view iteration_source_name(IterationSource source);

// Builds and validates the profile (model::parse_profile checks it as
// `mheta predict` will). Problems that leave the profile usable (no row
// count known, a dist.txt that does not fit, row weights that are not one
// per global row) are appended to `warnings`; unusable inputs throw
// model::FormatError.
model::Profile assemble_profile(const std::vector<RankRecord>& records, const AssemblyInputs& inputs,
                                std::vector<std::string>& warnings);

// The profile.json text: the model's document plus `iterations_source`,
// which the model does not read (docs/formats.md).
std::string profile_text(const model::Profile& profile, IterationSource source);

}  // namespace mheta::interpose
