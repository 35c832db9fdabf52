// mheta microbench -n N [-o cluster.json] [--budget S] [--emulate P] [--clock virtual|wall] ...:
// runs the MPI program mheta-microbench under mpiexec, or under `mheta run`
// when it is to measure an emulated cluster, and passes its exit code on.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cli/child_process.hpp"
#include "cli/clock_option.hpp"
#include "cli/command.hpp"
#include "cli/sibling_file.hpp"
#include <mheta/environment.hpp>
#include <mheta/exit_codes.hpp>

extern char** environ;

namespace mheta::cli {

namespace {

struct MicrobenchOptions {
  int ranks = 0;
  std::string output = "cluster.json";
  std::optional<double> budget_s;
  std::optional<double> target;
  std::optional<std::string> disk_dir;
  std::optional<std::int64_t> disk_file_bytes;
  std::string mpiexec;
  std::string program;
  std::string emulate;
  std::string clock;
};

// mheta-microbench beside mheta, else on the PATH.
std::string find_program() {
  const std::filesystem::path found = find_beside_mheta("microbench", "mheta-microbench");
  return found.empty() ? "mheta-microbench" : found.string();
}

// The launcher and its arguments up to the program: mpiexec, or, to measure
// an emulated cluster, `mheta run` (which preloads the interposer) with
// capture off, as `mheta validate` measures its cluster.
std::vector<std::string> launcher(const MicrobenchOptions& o, const std::string& mpiexec) {
  if (o.emulate.empty() && o.clock.empty()) return {mpiexec, "-n", std::to_string(o.ranks)};
  if (!o.mpiexec.empty()) setenv(env::kMpiexec, o.mpiexec.c_str(), 1);
  std::vector<std::string> args = {self_executable().string(), "run", "-n", std::to_string(o.ranks)};
  args.insert(args.end(), {"--capture", "off"});
  if (!o.emulate.empty()) args.insert(args.end(), {"--emulate", o.emulate});
  if (!o.clock.empty()) args.insert(args.end(), {"--clock", o.clock});
  args.emplace_back("--");
  return args;
}

int run_microbench(const MicrobenchOptions& o) {
  if (!is_clock_mode(o.clock)) {
    std::cerr << "mheta microbench: " << clock_usage(o.clock) << "\n";
    return kExitUsage;
  }
  std::string mpiexec = o.mpiexec;
  if (mpiexec.empty()) {
    const char* from_env = std::getenv(env::kMpiexec);
    mpiexec = from_env != nullptr && *from_env != '\0' ? from_env : "mpiexec";
  }
  const std::string program = o.program.empty() ? find_program() : o.program;
  std::vector<std::string> args = launcher(o, mpiexec);
  args.insert(args.end(), {program, "-o", o.output});
  auto forward = [&](const char* flag, const auto& value) {
    if (value) {
      args.emplace_back(flag);
      if constexpr (std::is_same_v<std::decay_t<decltype(*value)>, std::string>) {
        args.push_back(*value);
      } else {
        args.push_back(std::to_string(*value));
      }
    }
  };
  // mpiexec pipes the ranks' stderr, so the program cannot see our terminal.
  if (isatty(STDERR_FILENO) == 1) args.insert(args.end(), {"--progress", "always"});
  forward("--budget", o.budget_s);
  forward("--target", o.target);
  forward("--disk-dir", o.disk_dir);
  forward("--disk-file-bytes", o.disk_file_bytes);

  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int rc = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ); rc != 0) {
    std::cerr << "mheta microbench: cannot run " << args[0] << ": " << std::strerror(rc)
              << " (set --mpiexec or MHETA_MPIEXEC)\n";
    return kExitProgramFailed;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    // The program's own documented failures (usage, bad input, unwritable
    // output) keep their meaning; anything else is the program failing.
    if (code == kExitOk || code == kExitUsage || code == kExitBadInput || code == kExitCannotWrite) return code;
    std::cerr << "mheta microbench: " << args[0] << " " << program << " exited with status " << code << "\n";
    return kExitProgramFailed;
  }
  std::cerr << "mheta microbench: " << program << " was killed by signal " << WTERMSIG(status) << "\n";
  return kExitProgramFailed;
}

}  // namespace

void add_microbench_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<MicrobenchOptions>();
  CLI::App* cmd = app.add_subcommand("microbench", "Measure the cluster with N MPI ranks and write cluster.json");
  cmd->add_option("-n,--ranks", o->ranks, "MPI ranks (one per node to characterize; at least 2)")->required();
  cmd->add_option("-o,--output", o->output, "Where to write cluster.json")->capture_default_str();
  cmd->add_option("--budget", o->budget_s, "Time budget in seconds (default 60)")->check(CLI::PositiveNumber);
  cmd->add_option("--target", o->target, "Relative 95% confidence half-width to stop at (default 0.05)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--disk-dir", o->disk_dir, "Directory on each node's local disk for scratch files");
  cmd->add_option("--disk-file-bytes", o->disk_file_bytes, "Size of each rank's scratch file");
  cmd->add_option("--mpiexec", o->mpiexec, "MPI launcher (default: $MHETA_MPIEXEC, else mpiexec)");
  cmd->add_option("--program", o->program, "The mheta-microbench program (default: found beside mheta)");
  cmd->add_option("--emulate", o->emulate,
                  "Measure an emulated cluster: a preset (DC, IO, HY1, HY2) or an emulation file (runs under "
                  "mheta run)");
  add_clock_option(*cmd, o->clock);
  cmd->callback(
      [o, &exit_code] { exit_code = run_reporting_errors("microbench", [&] { return run_microbench(*o); }); });
}

}  // namespace mheta::cli
