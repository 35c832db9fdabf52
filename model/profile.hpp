#pragma once
// profile.json: one instrumented iteration of a program, written by the
// interposer (or by hand), read by the model.
//
// An iteration is, per rank, an ordered list of sections. A section is the
// code between two communication points (MHETA §3.1): its stages (compute,
// and the I/O of each distributed variable) followed by the communication
// that ends it, in program order.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "model/collective.hpp"
#include "model/gen_block.hpp"
#include "model/json_fields.hpp"
#include "model/slowdown.hpp"

namespace mheta::model {

inline constexpr std::string_view kProfileFormat = "mheta-profile/1";

enum class Access { read_only, read_write };

// Whose decision a variable's I/O is (docs/model.md, "I/O the program does
// itself"). An out-of-core array (io/'s local arrays, named by the
// mheta_variable hint) is read and written in ICLAs when the rank's memory
// cannot hold it, and not at all when it can (MHETA §4.2.1). A program's own
// file (any other file it reads or writes with MPI-IO) is read and written
// as the program does it, whatever the memory.
enum class VariableIo { out_of_core_array, program_file };

struct Variable {
  std::string name;
  std::int64_t bytes_per_row = 0;
  Access access = Access::read_write;
  VariableIo io = VariableIo::out_of_core_array;
  // A program file only: what each rank read and wrote of it was its own
  // block of rows (bytes_per_row bytes a row), so a rank with other rows
  // moves bytes in proportion; false: the same bytes whatever its rows (a
  // checkpoint of fixed size, a log).
  bool per_row = false;
};

struct IoStats {
  std::int64_t count = 0;  // requests
  std::int64_t bytes = 0;
  double seconds = 0;  // wall time inside the requests
};

struct StageIo {
  int variable = 0;  // index into Profile::variables
  IoStats reads;
  IoStats writes;
  // Reads were prefetches (made synchronous while instrumenting, §4.1.1).
  bool prefetch = false;
  // T_A summed over the stage's ICLAs: compute between a prefetch's issue
  // and its wait. Part of the stage's compute_s, not in addition to it.
  double overlap_compute_s = 0;
};

struct Stage {
  double compute_s = 0;  // T_Phi: stage time minus I/O time
  std::vector<StageIo> io;
};

enum class CommKind { send, recv, collective };

struct CommOp {
  CommKind kind = CommKind::send;
  int peer = -1;  // send and recv
  std::int64_t bytes = 0;
  int tag = 0;  // send and recv
  Collective collective = Collective::barrier;
  // The message is read from this out-of-core variable before it is sent
  // (MHETA §4.2.2: O-> then includes the read); -1 when it is in memory.
  int from_variable = -1;
  // send: posted without waiting for its bytes to leave (MPI_Isend, or a
  // persistent send's MPI_Start), so the rank goes on while its link puts
  // them out (docs/model.md, "A non-blocking send's gap"). collective:
  // posted without waiting for its result (MPI_Iallreduce, a persistent
  // collective's MPI_Start), which the call that completes it waits for
  // (docs/model.md, "Non-blocking collectives").
  bool nonblocking = false;
  // A non-blocking send whose completion also waits until its receiver has
  // reached the receive (MPI_Issend's rule): the rounds of a collective over
  // some but not all ranks (docs/model.md, "Collectives over a group").
  bool synchronous = false;
  // send: the contiguous blocks of memory its data lies in (1: one; more:
  // a vector, an indexed or a subarray type), which an MPI moves far
  // slower than the same bytes in one: each block after the first costs
  // the cluster's segment_s (docs/model.md, "Messages of non-contiguous
  // datatypes").
  std::int64_t segments = 1;
  // A non-blocking send or collective: where the call that completed it (a
  // wait or a test) was, as a place in the rank's iteration: before operation
  // `completed_comm` of section `completed_section`'s comm (its size: after
  // all of them, before the next section's stages). -1: not completed in
  // the iteration (the rank is held at the iteration's end instead).
  int completed_section = -1;
  int completed_comm = 0;
  // A blocking collective over every rank, captured on the wall clock: the
  // rank's time inside the call, waiting included (-1: not measured). The
  // smallest over the ranks is what the collective cost the program from
  // its last rank's arrival (docs/model.md, "Collectives as the program
  // paid for them").
  double inside_s = -1;

  // The same message, every field alike but the time inside (the same
  // operation of a period captured twice).
  bool operator==(const CommOp& other) const {
    const auto same_shape = [](const CommOp& c) {
      return std::tie(c.kind, c.peer, c.bytes, c.tag, c.collective, c.from_variable, c.nonblocking, c.synchronous,
                      c.segments, c.completed_section, c.completed_comm);
    };
    return same_shape(*this) == same_shape(other);
  }
};

struct Section {
  std::vector<Stage> stages;
  std::vector<CommOp> comm;  // in program order; receives are where they complete
};

struct RankProfile {
  std::string host;
  std::uint64_t memory_budget_bytes = 0;  // what the program saw when instrumented
  // The rates the rank was captured with (an emulated node's factors, 1 on
  // the machine itself); absent in profiles written before they were
  // recorded. The model normalizes compute and I/O by them.
  std::optional<Slowdown> slowdown;
  // The compute of one whole iteration of this rank run in core, at the
  // captured distribution and with the rank's captured slowdown (the median
  // over the capture run's iterations that did no I/O; model/in_core_compute.hpp).
  // Absent when the rank never ran in core, or the profile was written
  // without it: the captured, out-of-core compute is then used in core too.
  std::optional<double> in_core_compute_s;
  // How the rank's compute varied from one iteration to the next in the
  // capture run: its compute in a sample of the run's iterations over its
  // median, the same iterations on every rank, in the run's order
  // (model/compute_variation.hpp). Empty when not recorded; otherwise as
  // long on every rank.
  std::vector<double> compute_variation;
  std::vector<Section> sections;
};

// The clock a profile's times were taken with (docs/emulation.md): the wall
// clock, or the virtual clock of an emulated run (compute and I/O as the
// emulated cluster would take them, independent of how ranks shared cores).
enum class ProfileClock { wall, virtual_time };

std::string_view profile_clock_name(ProfileClock clock);  // "wall", "virtual"

// How sure an automatic capture is that it took the program's iteration
// (docs/formats.md, "capture"): how often the captured loop repeated, and
// the share of the run's time it took (the smallest over the ranks), and
// how the loop's iterations took on average against the captured one.
struct CaptureConfidence {
  std::int64_t repetitions = 0;
  double time_share = 0;  // in [0, 1]
  // The loop's mean iteration in the run over the captured period's time (1:
  // the captured iteration is a typical one; 2: the run's iterations took
  // twice as long, as when they grow), the furthest from 1 over the ranks.
  // Absent: not measured.
  std::optional<double> pace;
};

struct Profile {
  std::string program;
  ProfileClock clock = ProfileClock::wall;
  std::int64_t iterations = 1;  // iterations of the whole run
  bool prefetch = false;        // the program double-buffers ICLAs
  bool forced_out_of_core = true;
  GenBlock distribution;  // the distribution the iteration ran with
  std::vector<Variable> variables;
  // Optional work per global row (nonzeros of a sparse row, say); empty
  // means every row weighs the same.
  std::vector<double> row_weights;
  std::vector<RankProfile> ranks;
  // Absent when the iteration was marked, bracketed or named, not detected.
  std::optional<CaptureConfidence> capture;

  int rank_count() const { return static_cast<int>(ranks.size()); }
  std::int64_t global_rows() const { return distribution.total_rows(); }
};

Profile parse_profile(std::string_view text, std::string_view source);
Profile read_profile(const std::filesystem::path& path);
Json profile_to_json(const Profile& profile);
void write_profile(const std::filesystem::path& path, const Profile& profile);

}  // namespace mheta::model
