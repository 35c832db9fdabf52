// mheta microbench -n N [-o cluster.json] [--budget S] [--profile p.json] [--emulate P] [--clock virtual|wall]
// [--launcher L] ...:
// runs the MPI program mheta-microbench under the launcher (cli/launcher.hpp)
// and passes its exit code on. Under --emulate (or --clock) it runs under
// libmheta-interpose.so, so its figures are those of the emulated cluster
// (docs/microbench.md).
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cli/child_process.hpp"
#include "cli/clock_option.hpp"
#include "cli/interposer_environment.hpp"
#include "cli/command.hpp"
#include "cli/launcher.hpp"
#include "cli/sibling_file.hpp"
#include "interpose/emulation_config.hpp"
#include <mheta/environment.hpp>
#include <mheta/exit_codes.hpp>

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
  std::string launcher;
  std::string program;
  std::string emulate;
  std::string clock;
  std::vector<std::string> profiles;
};

int run_microbench(const MicrobenchOptions& o) {
  if (!is_clock_mode(o.clock)) throw UsageError(clock_usage(o.clock));
  if (!o.emulate.empty()) interpose::load_emulation(o.emulate);  // throws FormatError naming the problem
  std::vector<std::string> program = {o.program.empty() ? microbench_program() : o.program, "-o", o.output};
  auto forward = [&](const char* flag, const auto& value) {
    if (value) {
      program.emplace_back(flag);
      using Value = std::decay_t<decltype(*value)>;
      if constexpr (std::is_same_v<Value, std::string>) {
        program.push_back(*value);
      } else if constexpr (std::is_floating_point_v<Value>) {
        char text[32];  // the shortest that reads back exactly: 2, 0.05, not 2.000000
        program.emplace_back(text, std::to_chars(text, text + sizeof text, *value).ptr);
      } else {
        program.push_back(std::to_string(*value));
      }
    }
  };
  // The launcher pipes the ranks' stderr, so the program cannot see our terminal.
  if (isatty(STDERR_FILENO) == 1) program.insert(program.end(), {"--progress", "always"});
  forward("--budget", o.budget_s);
  forward("--target", o.target);
  forward("--disk-dir", o.disk_dir);
  forward("--disk-file-bytes", o.disk_file_bytes);
  for (const std::string& profile : o.profiles) program.insert(program.end(), {"--profile", profile});

  // --mpiexec: the MPICH preset with another mpiexec.
  if (!o.mpiexec.empty()) setenv(env::kMpiexec, o.mpiexec.c_str(), 1);
  const std::vector<std::string> launcher = launcher_template(o.mpiexec.empty() ? o.launcher : "mpich");
  // Emulating, the interposer times what the probes measure (MPI_Wtime) on
  // the emulated cluster; it captures nothing.
  LaunchEnvironment environment;
  if (!o.emulate.empty() || !o.clock.empty()) {
    add_interposer(environment, o.emulate, o.clock);
    environment.emplace_back(env::kCapture, "off");
  }
  ChildStatus status;
  try {
    status = run_child(launch_command(launcher, o.ranks, environment, program));
  } catch (const CannotStart& error) {
    std::cerr << "mheta microbench: " << error.what() << " (choose the launcher with --launcher or MHETA_LAUNCHER)\n";
    return kExitProgramFailed;
  }
  if (status.exited) {
    // The program's own documented failures (usage, bad input, unwritable
    // output) keep their meaning; anything else is the program failing.
    if (status.code == kExitOk || status.code == kExitUsage || status.code == kExitBadInput ||
        status.code == kExitCannotWrite) {
      return status.code;
    }
  }
  std::cerr << "mheta microbench: " << program[0] << " failed (" << status.describe() << ")\n";
  return kExitProgramFailed;
}

}  // namespace

void add_microbench_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<MicrobenchOptions>();
  CLI::App* cmd = app.add_subcommand("microbench", "Measure the cluster with N MPI ranks and write cluster.json");
  cmd->add_option("-n,--ranks", o->ranks, "MPI ranks (one per node to characterize; at least 2)")
      ->required()
      ->check(CLI::Validator(
          [](const std::string& value) -> std::string {
            int n = 0;
            return CLI::detail::lexical_cast(value, n) && n >= 2
                       ? ""
                       : "must be at least 2: the network is measured between ranks (got " + value + ")";
          },
          "at least 2"));
  cmd->add_option("-o,--output", o->output, "Where to write cluster.json")->capture_default_str();
  cmd->add_option("--budget", o->budget_s, "Time budget in seconds (default 60)")->check(CLI::PositiveNumber);
  cmd->add_option("--target", o->target, "Relative 95% confidence half-width to stop at (default 0.05)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--disk-dir", o->disk_dir, "Directory on each node's local disk for scratch files");
  cmd->add_option("--disk-file-bytes", o->disk_file_bytes, "Size of each rank's scratch file");
  cmd->add_option("--launcher", o->launcher, kLauncherHelp);
  cmd->add_option("--mpiexec", o->mpiexec, "MPICH's mpiexec to launch with (the mpich launcher; $MHETA_MPIEXEC)")
      ->excludes("--launcher");
  cmd->add_option("--emulate", o->emulate,
                  "Measure an emulated cluster: a preset (DC, IO, HY1, HY2) or an emulation file (docs/emulation.md)");
  cmd->add_option("--profile", o->profiles,
                  "Also time the collectives of this profile (mheta run) at its own sizes, which the model then "
                  "prices by what they cost there (repeatable)")
      ->check(CLI::ExistingFile)
      ->allow_extra_args(false);
  add_clock_option(*cmd, o->clock);
  cmd->add_option("--program", o->program, "The mheta-microbench program (default: found beside mheta)");
  cmd->callback(
      [o, &exit_code] { exit_code = run_reporting_errors("microbench", [&] { return run_microbench(*o); }); });
}

}  // namespace mheta::cli
