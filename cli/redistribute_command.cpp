// mheta redistribute --from old.txt --to new.txt --data DIR: moves the HDF5
// local arrays in DIR from one GEN_BLOCK distribution to another (io/
// redistribution.hpp). It is itself the MPI program, one rank per rank of
// the distributions:
//   mpiexec -n N mheta redistribute --from old.txt --to new.txt --data DIR
// or, starting mpiexec itself ($MHETA_MPIEXEC, else mpiexec):
//   mheta redistribute -n N --from old.txt --to new.txt --data DIR
// It first repairs an interrupted redistribution (and says which
// distribution is complete); --recover stops there.
#include <mpi.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/command.hpp"
#include <mheta/exit_codes.hpp>
#include "io/local_array.hpp"
#include "io/redistribution.hpp"
#include "io/redistribution_data_checksum.hpp"
#include "io/redistribution_inventory.hpp"
#include "io/redistribution_recovery.hpp"
#include "io/together.hpp"
#include "model/format_error.hpp"
#include "model/gen_block.hpp"

extern char** environ;

namespace mheta::cli {

namespace {

struct RedistributeOptions {
  std::string from;
  std::string to;
  std::string data;
  std::int64_t piece_bytes = std::int64_t{4} << 20;
  bool recover_only = false;
  bool checksum = false;
  int ranks = 0;  // > 0 and not under mpiexec yet: start it
};

// Runs this same command under mpiexec with `o.ranks` processes and
// returns its exit code.
int launch_under_mpiexec(const RedistributeOptions& o) {
  const char* from_env = std::getenv("MHETA_MPIEXEC");
  std::vector<std::string> args = {from_env != nullptr && *from_env != '\0' ? from_env : "mpiexec",
                                   "-n",
                                   std::to_string(o.ranks),
                                   std::filesystem::read_symlink("/proc/self/exe").string(),
                                   "redistribute",
                                   "--data",
                                   o.data,
                                   "--piece-bytes",
                                   std::to_string(o.piece_bytes)};
  for (const auto& [flag, value] : {std::pair{"--from", o.from}, std::pair{"--to", o.to}}) {
    if (!value.empty()) args.insert(args.end(), {flag, value});
  }
  if (o.recover_only) args.emplace_back("--recover");
  if (o.checksum) args.emplace_back("--checksum");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int rc = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ); rc != 0) {
    std::cerr << "mheta redistribute: cannot run " << args[0] << ": " << std::strerror(rc) << " (set MHETA_MPIEXEC)\n";
    return kExitProgramFailed;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  std::cerr << "mheta redistribute: " << args[0] << " was killed by signal " << WTERMSIG(status) << "\n";
  return kExitProgramFailed;
}

// The checksum of every variable, as one line per variable.
std::string checksums(MPI_Comm comm, const std::string& dir, const std::vector<io::RowShape>& shapes,
                      const model::GenBlock& dist, std::int64_t piece_bytes, std::vector<std::uint64_t>& sums) {
  std::ostringstream out;
  sums.clear();
  for (const io::RowShape& shape : shapes) {
    sums.push_back(io::data_checksum(comm, dir, shape, dist, piece_bytes));
    out << "  " << shape.variable << ": checksum " << sums.back() << "\n";
  }
  return out.str();
}

int run_redistribute(const RedistributeOptions& o, int rank, int size) {
  const MPI_Comm comm = MPI_COMM_WORLD;
  const io::Recovery recovery = io::recover(comm, o.data);
  if (rank == 0 && (o.recover_only || recovery.outcome == io::RecoveryOutcome::rolled_back ||
                    recovery.outcome == io::RecoveryOutcome::rolled_forward)) {
    std::cout << recovery.message << std::endl;
  }
  std::vector<io::StoredVariable> stored;
  io::together(comm, [&] { stored = io::stored_variables(o.data); });
  std::vector<io::RowShape> shapes;
  for (const auto& v : stored) shapes.push_back(v.shape);
  const model::GenBlock current = recovery.dist ? *recovery.dist : stored.front().dist;
  std::vector<std::uint64_t> before;
  std::vector<std::uint64_t> after;
  if (o.recover_only) {
    if (o.checksum) {
      const std::string text = checksums(comm, o.data, shapes, current, o.piece_bytes, after);
      if (rank == 0) std::cout << "distribution " << model::rows_in_brackets(current) << "\n" << text << std::flush;
    }
    return kExitOk;
  }
  if (o.from.empty() || o.to.empty()) {
    if (rank == 0) std::cerr << "mheta redistribute: --from and --to are required (or --recover)\n";
    return kExitUsage;
  }
  const model::GenBlock from = model::read_gen_block(o.from);
  const model::GenBlock to = model::read_gen_block(o.to);
  model::check_gen_block(from, size, current.total_rows(), o.from);
  model::check_gen_block(to, size, current.total_rows(), o.to);
  if (current == to && from != to) {
    if (rank == 0) std::cout << o.data << ": already in the distribution of " << o.to << "; nothing to move\n";
    return kExitOk;
  }
  if (current != from) {
    throw model::FormatError(
        o.from, "",
        "the data in " + o.data + " is in the distribution " + model::rows_in_brackets(current) + ", not " + model::rows_in_brackets(from));
  }
  if (o.checksum) {
    const std::string text = checksums(comm, o.data, shapes, from, o.piece_bytes, before);
    if (rank == 0) std::cout << "before, " << model::rows_in_brackets(from) << ":\n" << text << std::flush;
  }
  io::RedistributionOptions options;
  options.piece_bytes = o.piece_bytes;
  const io::RedistributionStats stats = io::redistribute(comm, o.data, shapes, from, to, options);
  if (rank == 0) {
    std::cout << "redistributed " << o.data << " from " << model::rows_in_brackets(from) << " to " << model::rows_in_brackets(to) << ": "
              << stats.bytes_written << " bytes written, " << stats.bytes_moved << " moved between ranks in "
              << stats.pieces << " pieces; " << stats.total_s << " s (exchange and write " << stats.exchange_s
              << " s, sync and verify " << stats.verify_s << " s, commit and switch " << stats.switch_s << " s), "
              << (stats.total_s > 0 ? static_cast<double>(stats.bytes_written) / stats.total_s / 1e6 : 0.0) << " MB/s\n"
              << std::flush;
  }
  if (o.checksum) {
    const std::string text = checksums(comm, o.data, shapes, to, o.piece_bytes, after);
    if (rank == 0) std::cout << "after, " << model::rows_in_brackets(to) << ":\n" << text << std::flush;
    if (after != before) {
      if (rank == 0) std::cerr << "mheta redistribute: the data's checksum changed\n";
      return kExitFailure;
    }
  }
  return kExitOk;
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
  cmd->add_option("-n,--ranks", o->ranks,
                  "Start N processes under mpiexec ($MHETA_MPIEXEC, else mpiexec); not needed when already under it")
      ->check(CLI::PositiveNumber);
  cmd->callback([o, &exit_code] {
    if (o->ranks > 0 && std::getenv("PMI_RANK") == nullptr) {
      exit_code = launch_under_mpiexec(*o);
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
