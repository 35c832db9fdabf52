#include "interpose/profile_output.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <mheta/environment.hpp>

#include "interpose/clock.hpp"
#include "interpose/period_alignment.hpp"
#include "interpose/step_tags.hpp"
#include "interpose/row_weights_file.hpp"
#include "interpose/sleep_wait.hpp"
#include "interpose/window_transfers.hpp"
#include "model/format_error.hpp"
#include "model/text_file.hpp"

namespace mheta::interpose {

namespace {

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}

// What the program was told it may use (MHETA_MEMORY_BYTES, the budget io/
// sizes its ICLAs with), else the node's physical memory.
std::uint64_t memory_budget() {
  if (const char* m = std::getenv(env::kMemoryBytes)) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(m, &end, 10);
    if (end != m && *end == '\0' && v > 0) return v;
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

std::string program_name() {
  std::ifstream cmdline("/proc/self/cmdline");
  std::string first;
  std::getline(cmdline, first, '\0');
  return first;
}

void warn(const std::string& message) { std::fprintf(stderr, "mheta interpose: %s\n", message.c_str()); }

// What was written, for the rewrite at MPI_Finalize: `written` on every rank
// (rank 0's verdict, broadcast), the profile itself on rank 0.
struct WrittenProfile {
  bool written = false;
  model::Profile profile;
};

WrittenProfile& written_profile() {
  static WrittenProfile* written = new WrittenProfile;  // never destroyed: used during exit
  return *written;
}

// Unusable weights leave the profile without them, never the program stopped.
std::vector<double> row_weights(const Settings& settings) {
  if (settings.row_weights_path.empty()) return {};
  try {
    return read_row_weights_file(settings.row_weights_path);
  } catch (const model::FormatError& error) {
    warn(std::string("MHETA_ROW_WEIGHTS: ") + error.what() + "; the profile has no row weights");
  }
  return {};
}

// "2, 3, 4", the first eight of them.
std::string rank_list(const std::vector<int>& ranks) {
  std::string which;
  for (std::size_t i = 0; i < ranks.size() && i < 8; ++i) which += (i > 0 ? ", " : "") + std::to_string(ranks[i]);
  if (ranks.size() > 8) which += ", ...";
  return which;
}

// One-sided transfers whose epoch's fence, or whose completion's next
// collective, fell outside the captured iteration (window_transfers.hpp).
std::string dropped_transfers_message(std::int64_t dropped) {
  return std::to_string(dropped) + (dropped == 1 ? " one-sided transfer" : " one-sided transfers") +
         " of the captured iteration reached no fence or collective within it after its completion and " +
         (dropped == 1 ? "is" : "are") + " left out of the profile";
}

// Why no profile was written, and what the user can do about it.
std::string no_iteration_message(const std::vector<int>& ranks, CaptureMode mode) {
  const std::string which = rank_list(ranks);
  if (mode != CaptureMode::automatic) {
    return "the run ended before every rank captured a whole iteration (rank " + which +
           " did not); no profile written (see docs/interpose.md, \"Which iteration\")";
  }
  return "no iteration found: the MPI calls of rank " + which +
         " never repeated one sequence three times in a row; no profile written. Say where an iteration ends: "
         "call mheta_mark_iteration() at the end of each (<mheta/marks.h>), bracket one with MPI_Pcontrol(1) and "
         "MPI_Pcontrol(0) (mheta run --capture pcontrol), or name the call that ends one (mheta run --capture "
         "call:MPI_Name[:k], every k-th call of MPI_Name)";
}

// Which ranks were found idle in the loop the others captured.
void note_idle_ranks(const std::vector<int>& ranks) {
  if (ranks.empty()) return;
  warn("rank" + std::string(ranks.size() > 1 ? "s " : " ") + rank_list(ranks) +
       " found no loop, spent the run waiting and take no part in the loop the other ranks captured (no "
       "message of theirs, no collective): the profile gives " + (ranks.size() > 1 ? "them" : "it") +
       " an empty iteration");
}

// Ranks on which threads other than the one that called MPI_Init made MPI
// calls (MPI_THREAD_MULTIPLE): their captures mix the threads' calls.
void note_other_threads(const std::vector<RankRecord>& records) {
  std::vector<int> ranks;
  for (const RankRecord& r : records) {
    if (r.other_threads) ranks.push_back(r.rank);
  }
  if (ranks.empty()) return;
  warn("threads other than the one that called MPI_Init made MPI calls on rank" +
       std::string(ranks.size() > 1 ? "s " : " ") + rank_list(ranks) +
       " (MPI_THREAD_MULTIPLE): the capture takes a rank's calls of every thread as one sequence. Where their order "
       "changes from iteration to iteration, or one rank's helper thread answers another rank's main thread, the "
       "profile may describe no iteration of the program: the model follows one sequence of calls a rank");
}

// The ranks' captured iterations do not fit together: the model's reason,
// and in automatic mode why no rotation of the periods made them fit.
std::string misfit_message(const std::string& problem, const PeriodAlignment& alignment, const Settings& settings) {
  std::string message = "the ranks' captured iterations do not fit together (" + problem +
                        "): mheta predict will refuse this profile";
  if (settings.capture != CaptureMode::automatic) return message;
  if (!alignment.problem.empty()) message += ". " + alignment.problem;
  return message + ". Each rank captured its own period of a loop; mark the program's iterations "
                   "(mheta_mark_iteration(), MPI_Pcontrol) so that every rank captures the same one";
}

IterationSource first_source(const Settings& settings) {
  return settings.stated_iterations > 0 ? IterationSource::stated : IterationSource::captured;
}

}  // namespace

void start_profile_gather(MPI_Comm comm, RankRecord record, ProfileGather& g) {
  g.comm = comm;
  PMPI_Comm_rank(comm, &g.rank);
  PMPI_Comm_size(comm, &g.size);
  record.host = host_name();
  record.memory_budget_bytes = memory_budget();
  g.text = rank_record_to_json(record).dump();
  g.length = static_cast<int>(g.text.size());
  g.lengths.resize(g.rank == 0 ? static_cast<std::size_t>(g.size) : 0);
  PMPI_Igather(&g.length, 1, MPI_INT, g.lengths.data(), 1, MPI_INT, 0, comm, &g.lengths_gathered);
  if (g.rank == 0) return;  // its records' gather needs the lengths
  PMPI_Igatherv(g.text.data(), g.length, MPI_CHAR, nullptr, nullptr, nullptr, MPI_CHAR, 0, comm, &g.records_gathered);
  PMPI_Ibcast(&g.written, 1, MPI_INT, 0, comm, &g.answered);
  g.records_posted = g.answer_posted = true;
}

namespace {

// The profile the records make, with what assembling them says.
struct Assembled {
  model::Profile profile;
  std::vector<std::string> warnings;
  std::int64_t dropped_transfers = 0;
  std::optional<std::string> misfit;  // why the model refuses it, if it does
};

Assembled assemble(std::vector<RankRecord>& records, const AssemblyInputs& inputs) {
  Assembled a;
  a.dropped_transfers = pair_window_transfers(records).dropped;
  a.profile = assemble_profile(records, inputs, a.warnings);
  a.misfit = iterations_misfit(a.profile);
  return a;
}

// Rank 0, every record gathered: the profile assembled and written.
// Returns whether it was.
int write_gathered_profile(const ProfileGather& g, const Settings& settings) {
  try {
    std::vector<RankRecord> records;
    std::vector<int> incomplete;
    for (std::size_t r = 0; r < g.lengths.size(); ++r) {
      records.push_back(rank_record_from_json(model::Json::parse(
          g.all.substr(static_cast<std::size_t>(g.displacements[r]), static_cast<std::size_t>(g.lengths[r])))));
    }
    if (settings.capture == CaptureMode::automatic) note_idle_ranks(admit_idle_ranks(records));
    for (int r = 0; r < g.size; ++r) {
      if (!records[static_cast<std::size_t>(r)].complete) incomplete.push_back(r);
    }
    if (!incomplete.empty()) {
      warn(no_iteration_message(incomplete, settings.capture));
      return 0;
    }
    // Each rank captured its period on its own, wherever its loop let it
    // begin (at another step, whose tags may differ): one window of the
    // run, in every channel, before they meet.
    const bool automatic = settings.capture == CaptureMode::automatic;
    if (automatic) pair_step_tags(records);
    std::vector<RankRecord> as_captured = automatic ? records : std::vector<RankRecord>{};
    PeriodAlignment alignment = automatic ? align_periods(records) : PeriodAlignment{};
    const AssemblyInputs inputs{program_name(), settings.global_rows, settings.dist_path, settings.stated_iterations,
                               row_weights(settings)};
    Assembled assembled = assemble(records, inputs);
    // Where each rank's period is another iteration (a loop whose length
    // varies), the numbers of their messages line up no rotation, or one
    // that still deadlocks; beginning every period at the same collective
    // may not.
    if (assembled.misfit && automatic) {
      const PeriodAlignment at_a_collective = align_at_a_collective(as_captured);
      if (at_a_collective.aligned) {
        Assembled again = assemble(as_captured, inputs);
        if (!again.misfit) {
          alignment = at_a_collective;
          assembled = std::move(again);
          records = std::move(as_captured);
        }
      }
    }
    if (assembled.dropped_transfers > 0) warn(dropped_transfers_message(assembled.dropped_transfers));
    for (const std::string& w : assembled.warnings) warn(w);
    const model::Profile& profile = assembled.profile;
    note_other_threads(records);
    if (assembled.misfit) warn(misfit_message(*assembled.misfit, alignment, settings));
    model::write_text_file_atomically(settings.profile_path, profile_text(profile, first_source(settings)));
    written_profile().profile = profile;
    return 1;
  } catch (const std::exception& error) {
    warn(std::string("cannot write the profile ") + settings.profile_path + ": " + error.what());
  }
  return 0;
}

}  // namespace

bool advance_profile_gather(ProfileGather& g, const Settings& settings, double seconds) {
  const double deadline = now_s() + seconds;
  if (g.rank == 0 && !g.records_posted) {
    if (!completes_by(g.lengths_gathered, deadline)) return false;
    g.displacements.resize(g.lengths.size());
    std::size_t total = 0;
    for (std::size_t i = 0; i < g.lengths.size(); ++i) {
      g.displacements[i] = static_cast<int>(total);
      total += static_cast<std::size_t>(g.lengths[i]);
    }
    g.all.resize(total);
    PMPI_Igatherv(g.text.data(), g.length, MPI_CHAR, g.all.data(), g.lengths.data(), g.displacements.data(), MPI_CHAR,
                  0, g.comm, &g.records_gathered);
    g.records_posted = true;
  }
  if (g.rank == 0 && !g.answer_posted) {
    if (!completes_by(g.records_gathered, deadline)) return false;
    g.written = write_gathered_profile(g, settings);
    PMPI_Ibcast(&g.written, 1, MPI_INT, 0, g.comm, &g.answered);
    g.answer_posted = true;
  }
  if (!completes_by(g.answered, deadline)) return false;
  // A rank other than 0 learns only now that its lengths' and records'
  // gathers ended; they did before the answer was sent.
  PMPI_Wait(&g.lengths_gathered, MPI_STATUS_IGNORE);
  PMPI_Wait(&g.records_gathered, MPI_STATUS_IGNORE);
  written_profile().written = g.written != 0;
  return true;
}

void rewrite_profile_with_run_iterations(std::int64_t counted, const Settings& settings) {
  WrittenProfile& written = written_profile();
  if (!written.written) return;
  // Every rank joins whatever its settings say: a rank that skipped the
  // reduction would leave the others waiting in MPI_Finalize.
  MPI_Comm comm = MPI_COMM_NULL;
  if (PMPI_Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS) return;
  std::int64_t most = 0;
  PMPI_Allreduce(&counted, &most, 1, MPI_INT64_T, MPI_MAX, comm);
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_free(&comm);
  written.written = false;
  if (rank != 0 || settings.stated_iterations > 0 || most <= 0) return;
  written.profile.iterations = most;
  try {
    model::write_text_file_atomically(settings.profile_path, profile_text(written.profile, IterationSource::counted));
  } catch (const std::exception& error) {
    warn(std::string("cannot rewrite the profile ") + settings.profile_path + " with the run's " +
         std::to_string(most) + " iterations: " + error.what() + "; it keeps the count seen at capture");
  }
}

}  // namespace mheta::interpose
