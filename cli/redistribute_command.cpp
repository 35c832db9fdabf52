// mheta redistribute --from old.txt --to new.txt --data DIR: moves the HDF5
// local arrays in DIR from one GEN_BLOCK distribution to another (io/
// redistribution.hpp). It is itself the MPI program, one rank per rank of
// the distributions:
//   mpiexec -n N mheta redistribute --from old.txt --to new.txt --data DIR
// or, starting the launcher itself (--launcher, cli/launcher.hpp):
//   mheta redistribute -n N --from old.txt --to new.txt --data DIR
// It first repairs an interrupted redistribution (and says which
// distribution is complete); --recover stops there.
#include <mpi.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/child_process.hpp"
#include "cli/command.hpp"
#include "cli/launcher.hpp"
#include "interpose/launcher_rank.hpp"
#include <mheta/environment.hpp>
#include <mheta/exit_codes.hpp>
#include "io/local_array.hpp"
#include "io/redistribution.hpp"
#include "io/redistribution_data_checksum.hpp"
#include "io/redistribution_inventory.hpp"
#include "io/redistribution_recovery.hpp"
#include "io/together.hpp"
#include "model/format_error.hpp"
#include "model/gen_block.hpp"
#include "model/json_fields.hpp"

namespace mheta::cli {

namespace {

struct RedistributeOptions {
  std::string from;
  std::string to;
  std::string data;
  std::int64_t piece_bytes = std::int64_t{4} << 20;
  bool recover_only = false;
  bool checksum = false;
  bool json = false;
  std::string launcher;
  int ranks = 0;  // > 0 and not under a launcher yet: start it
};

// Runs this same command under the launcher with `o.ranks` processes and
// returns its exit code. MHETA_LAUNCHED tells the processes they are the ranks.
int launch_ranks(const RedistributeOptions& o) {
  std::vector<std::string> program = {self_executable().string(), "redistribute", "--data", o.data, "--piece-bytes",
                                      std::to_string(o.piece_bytes)};
  for (const auto& [flag, value] : {std::pair{"--from", o.from}, std::pair{"--to", o.to}}) {
    if (!value.empty()) program.insert(program.end(), {flag, value});
  }
  if (o.recover_only) program.emplace_back("--recover");
  if (o.checksum) program.emplace_back("--checksum");
  if (o.json) program.emplace_back("--json");
  const std::vector<std::string> command =
      launch_command(launcher_template(o.launcher), o.ranks, {{env::kLaunched, "1"}}, program);
  ChildStatus status;
  try {
    status = run_child(command);
  } catch (const CannotStart& error) {
    std::cerr << "mheta redistribute: " << error.what() << " (choose the launcher with --launcher or MHETA_LAUNCHER)\n";
    return kExitProgramFailed;
  }
  if (status.exited) return status.code;
  std::cerr << "mheta redistribute: " << command[0] << " ended by " << status.describe() << "\n";
  return kExitProgramFailed;
}

// Already one of the ranks: started by launch_ranks, or by the user under a
// launcher that says how many processes it started.
bool under_launcher() {
  if (std::getenv(env::kLaunched) != nullptr) return true;
  const std::optional<interpose::LauncherRank> launched = interpose::launcher_rank();
  return launched && launched->size > 1;
}

const char* outcome_name(io::RecoveryOutcome outcome) {
  switch (outcome) {
    case io::RecoveryOutcome::never_redistributed: return "never_redistributed";
    case io::RecoveryOutcome::complete: return "complete";
    case io::RecoveryOutcome::rolled_back: return "rolled_back";
    case io::RecoveryOutcome::rolled_forward: return "rolled_forward";
  }
  return "?";
}

// What rank 0 tells: as text as it happens, or as one JSON object at the
// end (docs/schemas/redistribute.schema.json).
class Report {
 public:
  Report(bool json, bool speaks) : json_(json), speaks_(speaks) {}
  void text(const std::string& line) const {
    if (speaks_ && !json_) std::cout << line << std::flush;
  }
  model::Json& json() { return out_; }
  int finish(int code) const {
    if (speaks_ && json_) std::cout << out_.dump(2) << "\n" << std::flush;
    return code;
  }

 private:
  bool json_;
  bool speaks_;
  model::Json out_ = {{"format", "mheta-redistribution/1"}};
};

// Every variable's checksum: one line each in the text, an object in the JSON.
std::vector<std::uint64_t> checksums(MPI_Comm comm, const RedistributeOptions& o, const std::vector<io::RowShape>& shapes,
                                     const model::GenBlock& dist, Report& report, const std::string& when) {
  std::vector<std::uint64_t> sums;
  std::ostringstream text;
  // "distribution [..]" after recovery; "before, [..]:" and "after, [..]:" around a move.
  text << when << (when == "distribution" ? " " : ", ") << model::rows_in_brackets(dist)
       << (when == "distribution" ? "" : ":") << "\n";
  model::Json json = model::Json::object();
  for (const io::RowShape& shape : shapes) {
    sums.push_back(io::data_checksum(comm, o.data, shape, dist, o.piece_bytes));
    text << "  " << shape.variable << ": checksum " << sums.back() << "\n";
    json[shape.variable] = sums.back();
  }
  report.text(text.str());
  report.json()["checksums"][when] = json;
  return sums;
}

int run_redistribute(const RedistributeOptions& o, int rank, int size) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  Report report(o.json, rank == 0);
  report.json()["data"] = o.data;
  const io::Recovery recovery = io::recover(comm, o.data);
  if (o.recover_only || recovery.outcome == io::RecoveryOutcome::rolled_back ||
      recovery.outcome == io::RecoveryOutcome::rolled_forward) {
    report.text(recovery.message + "\n");
  }
  report.json()["recovery"] = {{"outcome", outcome_name(recovery.outcome)}, {"message", recovery.message}};
  std::vector<io::StoredVariable> stored;
  io::together(comm, [&] { stored = io::stored_variables(o.data); });
  std::vector<io::RowShape> shapes;
  for (const auto& v : stored) shapes.push_back(v.shape);
  const model::GenBlock current = recovery.dist ? *recovery.dist : stored.front().dist;
  report.json()["distribution"] = current.rows;
  report.json()["moved"] = false;
  if (o.recover_only) {
    if (o.checksum) checksums(comm, o, shapes, current, report, "distribution");
    return report.finish(kExitOk);
  }
  if (o.from.empty() || o.to.empty()) throw UsageError("--from and --to are required (or --recover)");
  const model::GenBlock from = model::read_gen_block(o.from);
  const model::GenBlock to = model::read_gen_block(o.to);
  model::check_gen_block(from, size, current.total_rows(), o.from);
  model::check_gen_block(to, size, current.total_rows(), o.to);
  if (current == to && from != to) {
    report.text(o.data + ": already in the distribution of " + o.to + "; nothing to move\n");
    return report.finish(kExitOk);
  }
  if (current != from) {
    throw model::FormatError(o.from, "",
                             "the data in " + o.data + " is in the distribution " + model::rows_in_brackets(current) +
                                 ", not " + model::rows_in_brackets(from));
  }
  std::vector<std::uint64_t> before;
  if (o.checksum) before = checksums(comm, o, shapes, from, report, "before");
  io::RedistributionOptions options;
  options.piece_bytes = o.piece_bytes;
  const io::RedistributionStats stats = io::redistribute(comm, o.data, shapes, from, to, options);
  const double mb_per_s = stats.total_s > 0 ? static_cast<double>(stats.bytes_written) / stats.total_s / 1e6 : 0.0;
  std::ostringstream line;
  line << "redistributed " << o.data << " from " << model::rows_in_brackets(from) << " to "
       << model::rows_in_brackets(to) << ": " << stats.bytes_written << " bytes written, " << stats.bytes_moved
       << " moved between ranks in " << stats.pieces << " pieces; " << stats.total_s << " s (exchange and write "
       << stats.exchange_s << " s, sync and verify " << stats.verify_s << " s, commit and switch " << stats.switch_s
       << " s), " << mb_per_s << " MB/s\n";
  report.text(line.str());
  report.json().update({{"moved", true},
                        {"from", from.rows},
                        {"distribution", to.rows},
                        {"bytes_written", stats.bytes_written},
                        {"bytes_moved", stats.bytes_moved},
                        {"pieces", stats.pieces},
                        {"total_s", stats.total_s},
                        {"exchange_s", stats.exchange_s},
                        {"verify_s", stats.verify_s},
                        {"switch_s", stats.switch_s}});
  if (o.checksum) {
    const std::vector<std::uint64_t> after = checksums(comm, o, shapes, to, report, "after");
    if (after != before) {
      if (rank == 0) std::cerr << "mheta redistribute: the data's checksum changed\n";
      return report.finish(kExitFailure);
    }
  }
  return report.finish(kExitOk);
}

}  // namespace

void add_redistribute_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<RedistributeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "redistribute",
      "Move the HDF5 local arrays of DIR to another distribution; run under mpiexec with one process per rank");
  cmd->add_option("--from", o->from, "dist.txt the data is in now");
  cmd->add_option("--to", o->to, "dist.txt to move it to");
  cmd->add_option("--data", o->data, "Directory of the local arrays <var>.<rank>.h5")->required();
  cmd->add_option("--piece-bytes", o->piece_bytes, "Most bytes of rows in one message or disk access")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30))
      ->capture_default_str();
  cmd->add_flag("--recover", o->recover_only,
                "Only repair an interrupted redistribution and say which distribution is complete");
  cmd->add_flag("--checksum", o->checksum, "Print every variable's checksum before and after, and compare them");
  cmd->add_option("-n,--ranks", o->ranks, "Start N processes under the launcher; not needed when already under one")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--launcher", o->launcher, kLauncherHelp);
  cmd->add_flag("--json", o->json, "Print the outcome as JSON (docs/schemas/redistribute.schema.json)");
  cmd->callback([o, &exit_code] {
    if (o->ranks > 0 && !under_launcher()) {
      exit_code = run_reporting_errors("redistribute", [&] { return launch_ranks(*o); });
      return;
    }
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) MPI_Init(nullptr, nullptr);
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    exit_code = run_reporting_errors("redistribute", [&] {
      try {
        return run_redistribute(*o, rank, size);
      } catch (const io::FailedTogether& e) {
        // Only the ranks that failed know why: they tell.
        if (*e.what() != '\0') std::cerr << "mheta redistribute: " << e.what() << "\n";
        return kExitBadInput;
      } catch (const io::LocalArrayError& e) {
        std::cerr << "mheta redistribute: " << e.what() << "\n";
        return kExitBadInput;
      } catch (const model::FormatError& e) {
        // The distributions are read by every rank alike: rank 0 tells.
        if (rank == 0) std::cerr << "mheta redistribute: " << e.what() << "\n";
        return kExitBadInput;
      } catch (const UsageError& e) {
        if (rank == 0) std::cerr << "mheta redistribute: " << e.what() << "\n";
        return kExitUsage;
      } catch (const io::RedistributionError& e) {
        // The same message on every rank: rank 0 tells.
        if (rank == 0) std::cerr << "mheta redistribute: " << e.what() << "\n";
        return kExitFailure;
      }
    });
    MPI_Finalize();
  });
}

}  // namespace mheta::cli
