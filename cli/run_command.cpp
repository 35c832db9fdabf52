// mheta run -n N [--emulate PRESET|FILE] [--clock virtual|wall] [--capture MODE] [--rows R] [--dist FILE]
//           [--iterations N] [--row-weights FILE] [--profile OUT] [--accounting OUT]
//           [--accounting-call MPI_Name[:k][,...]] [--wait sleep|spin]
//           [--launcher L] [--] ./prog args
//
// Runs an unmodified MPI program under a launcher with libmheta-interpose.so
// preloaded: it captures one iteration into a profile and, optionally,
// emulates a heterogeneous cluster (docs/interpose.md, docs/emulation.md).
// Every setting is checked before the program starts.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <mheta/environment.hpp>
#include <mheta/exit_codes.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli/clock_option.hpp"
#include "cli/child_process.hpp"
#include "cli/command.hpp"
#include "cli/command_line.hpp"
#include "cli/interposer_environment.hpp"
#include "cli/launcher.hpp"
#include "cli/run_compute_level.hpp"
#include "cli/static_executable.hpp"
#include "cli/whole_number.hpp"
#include "interpose/emulation_config.hpp"
#include "interpose/row_weights_file.hpp"
#include "model/call_list.hpp"
#include "model/compute_variation.hpp"
#include "model/format_error.hpp"
#include "model/gen_block.hpp"
#include "model/profile.hpp"
#include "model/text_file.hpp"

namespace mheta::cli {

namespace {

namespace fs = std::filesystem;

struct RunOptions {
  int ranks = 0;
  std::string emulate;
  std::string clock;
  std::string wait;
  std::string capture;
  std::int64_t capture_iteration = 0;
  std::int64_t rows = 0;
  std::string dist;
  std::int64_t iterations = 0;
  std::string row_weights;
  std::string profile = env::kDefaultProfile;
  std::string accounting;
  std::string accounting_call;
  std::string launcher;
  std::vector<std::string> program;
};

void check_capture_mode(const std::string& mode) {
  if (mode.empty() || mode == "auto" || mode == "mark" || mode == "pcontrol" || mode == "off") return;
  if (mode.starts_with("call:") && model::is_call(std::string_view(mode).substr(5))) return;
  throw UsageError("--capture " + mode + ": expected auto, mark, pcontrol, off or call:MPI_Name[:k]");
}

// An automatic capture whose loop took little of the run may describe the
// wrong loop (a setup sequence, a phase of a longer computation).
constexpr double kUnsureShare = 0.5;
// The loop's iterations took this much longer, or shorter, on average than
// the captured one: the run is not that many captured iterations.
constexpr double kUnsteadyPace = 1.3;

std::string percent(double share) { return std::to_string(static_cast<int>(share * 100 + 0.5)) + " %"; }

// `run_compute`: the profile's pace is against the run's median iteration,
// which the profile prices (record_run_compute).
void warn_if_unsure(const std::string& profile_path, bool run_compute) {
  model::Profile profile;
  try {
    profile = model::read_profile(profile_path);
  } catch (const model::FormatError& error) {
    std::cerr << "mheta run: warning: " << error.what() << "\n";
    return;
  }
  if (!profile.capture) return;
  if (profile.capture->time_share < kUnsureShare) {
    std::cerr << "mheta run: warning: the captured iteration's loop took only " << percent(profile.capture->time_share)
              << " of the run (repeated " << profile.capture->repetitions
              << " times): the profile may describe the wrong loop. Mark the program's iterations "
                 "(mheta_mark_iteration(), MPI_Pcontrol) or name the call that ends one (--capture call:MPI_Name[:k])\n";
  }
  const std::optional<double> pace = profile.capture->pace;
  // Where the profile prices the run's median iteration with the compute's
  // variation, the prediction's compute is the run's mean already: only
  // the pace beyond that variation is unpriced.
  const double priced = run_compute ? model::mean_compute_variation(profile) : 1.0;
  if (pace && (*pace > kUnsteadyPace * priced || *pace < 1 / kUnsteadyPace)) {
    std::ostringstream ratio;
    ratio << std::setprecision(2) << *pace;
    const char* against = run_compute ? "the run's median iteration's" : "the captured iteration's";
    const char* why = run_compute ? "a few iterations much longer than the others, or work per iteration that grows "
                                    "faster late in the run"
                                  : "iterations that grow or shrink as the run goes, work after the loop, or a "
                                    "machine whose load changed";
    std::cerr << "mheta run: warning: the loop's iterations took " << ratio.str() << "x " << against
              << " time on average (" << why << "): the prediction prices the run as " << profile.iterations
              << (run_compute ? " median" : " captured") << " iterations";
    if (priced != 1.0) {
      std::ostringstream factor;
      factor << std::setprecision(2) << priced;
      std::cerr << " whose compute varies as the run's, " << factor.str() << "x the median on average";
    }
    std::cerr << "\n";
  }
}

// The profile's folder must exist and be writable before the program runs
// for minutes only to fail at the end.
void check_profile_writable(const std::string& profile) {
  const fs::path parent = fs::absolute(profile).parent_path();
  std::error_code error;
  if (!fs::is_directory(parent, error)) {
    throw model::OutputError("cannot write the profile " + profile + ": folder " + parent.string() + " does not exist");
  }
  if (access(parent.c_str(), W_OK) != 0) {
    throw model::OutputError("cannot write the profile " + profile + ": folder " + parent.string() +
                             " is not writable (" + std::strerror(errno) + ")");
  }
}

// A file of the run's own, gone however the run ends.
struct RemovedAtExit {
  fs::path path;
  explicit RemovedAtExit(fs::path p) : path(std::move(p)) {}
  RemovedAtExit(const RemovedAtExit&) = delete;
  RemovedAtExit& operator=(const RemovedAtExit&) = delete;
  ~RemovedAtExit() {
    std::error_code ignored;
    if (!path.empty()) fs::remove(path, ignored);
  }
};

int run_program(const RunOptions& o) {
  if (o.program.empty()) throw UsageError("give the program to run after mheta run's options");
  // The program's first word ends mheta's options, so a mistyped option
  // would be taken for the program and handed to the launcher.
  if (o.program.front().starts_with('-')) {
    throw UsageError("unknown option " + o.program.front() +
                     " (mheta run --help lists the options; the program and its arguments follow them)");
  }
  if (const std::string file = statically_linked(o.program.front()); !file.empty()) {
    throw model::FormatError(file, "",
                             "a statically linked executable: the interposer is loaded with LD_PRELOAD, which such "
                             "a program never reads, so nothing would be captured or emulated; link it against the "
                             "shared MPI library (mpicc without -static)");
  }
  check_capture_mode(o.capture);
  if (!o.accounting_call.empty() && !model::is_call_list(o.accounting_call)) {
    throw UsageError("--accounting-call " + o.accounting_call +
                     ": expected MPI_Name[:k], or one per rank separated by commas");
  }
  if (!o.wait.empty() && o.wait != "sleep" && o.wait != "spin") throw UsageError("--wait must be sleep or spin");
  if (!is_clock_mode(o.clock)) throw UsageError(clock_usage(o.clock));
  if (!o.emulate.empty()) interpose::load_emulation(o.emulate);  // throws FormatError naming the problem
  if (!o.dist.empty()) {
    const model::GenBlock dist = model::read_gen_block(o.dist);
    model::check_gen_block(dist, o.ranks, o.rows > 0 ? o.rows : dist.total_rows(), o.dist);
  }
  if (!o.row_weights.empty()) {
    // A FormatError names the file and the line.
    const std::vector<double> weights = interpose::read_row_weights_file(o.row_weights);
    if (o.rows > 0 && static_cast<std::int64_t>(weights.size()) != o.rows) {
      throw model::FormatError(o.row_weights, "",
                               std::to_string(weights.size()) + " weights, but --rows says " + std::to_string(o.rows) +
                                   " rows (one weight per global row)");
    }
  }
  if (o.capture != "off") check_profile_writable(o.profile);
  const std::vector<std::string> launcher = launcher_template(o.launcher);
  // Settings reach the ranks through the environment, passed on by the
  // launcher (-genv, -x, --export); LD_PRELOAD only that way, so the
  // launcher itself runs without it.
  LaunchEnvironment environment;
  const auto set = [&environment](const char* name, const std::string& value) {
    if (!value.empty()) environment.emplace_back(name, value);
  };
  add_interposer(environment, o.emulate, o.clock);
  set(env::kWait, o.wait);
  add_thread_wait_policy(environment, o.wait == "sleep" || (o.wait.empty() && !o.emulate.empty()));
  set(env::kCapture, o.capture);
  set(env::kCaptureIteration, o.capture_iteration > 0 ? std::to_string(o.capture_iteration) : "");
  set(env::kRows, o.rows > 0 ? std::to_string(o.rows) : "");
  set(env::kDist, o.dist.empty() ? "" : fs::absolute(o.dist).string());
  set(env::kIterations, o.iterations > 0 ? std::to_string(o.iterations) : "");
  set(env::kRowWeights, o.row_weights.empty() ? "" : fs::absolute(o.row_weights).string());
  set(env::kProfile, fs::absolute(o.profile).string());
  // The iterations' terms, for the compute of the whole run: every one
  // where the user asked for them, else beside the profile for the time of
  // the run (under the wall clock, a sample of them).
  const bool run_compute = o.capture != "off" && (!o.accounting.empty() || records_run_compute(o.capture));
  const fs::path own_records = fs::absolute(o.profile).parent_path() / (".mheta-run-" + std::to_string(getpid()) + ".accounting.json");
  const fs::path records = !o.accounting.empty() ? fs::absolute(o.accounting) : run_compute ? own_records : fs::path();
  set(env::kAccounting, records.string());
  const bool own = o.accounting.empty() && run_compute;
  const RemovedAtExit own_records_removed{own ? own_records : fs::path()};
  const int samples = own ? run_record_samples(o.emulate, o.clock) : 0;
  set(env::kAccountingSamples, samples > 0 ? std::to_string(samples) : "");
  set(env::kAccountingCall, o.accounting_call);

  const std::vector<std::string> command = launch_command(launcher, o.ranks, environment, o.program);
  ChildStatus status;
  try {
    status = run_child(command);
  } catch (const CannotStart& error) {
    std::cerr << "mheta run: " << error.what() << " (choose the launcher with --launcher or MHETA_LAUNCHER)\n";
    return kExitProgramFailed;
  }
  if (!status.ok()) {
    std::cerr << "mheta run: the program failed (" << status.describe() << ")\n";
    return kExitProgramFailed;
  }
  if (o.capture != "off") {
    if (fs::is_regular_file(o.profile)) {
      const bool paced_by_run =
          run_compute && fs::is_regular_file(records) && record_run_compute(o.profile, records, o.capture);
      std::cerr << "mheta run: profile written to " << o.profile << "\n";
      warn_if_unsure(o.profile, paced_by_run);
    } else {
      // The program's own work is done, but what this command is for is
      // not: a script's next step (predict, search) would fail on the
      // missing file, so the exit says it here.
      std::cerr << "mheta run: the program finished but wrote no profile: the interposer's messages above say why; "
                   "without any, the program never called MPI_Init\n";
      return kExitNoProfile;
    }
  }
  return kExitOk;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<RunOptions>();
  CLI::App* cmd =
      app.add_subcommand("run", "Run an MPI program under the interposer: capture one iteration, emulate a cluster");
  cmd->add_option("-n,--np", o->ranks, "Number of ranks")->required()->check(whole_number(1, kMaxRanks));
  cmd->add_option("--emulate", o->emulate, "Emulated cluster: a preset (DC, IO, HY1, HY2) or an emulation file");
  add_clock_option(*cmd, o->clock);
  cmd->add_option("--wait", o->wait, "How blocked ranks wait: sleep or spin (default: sleep when emulating)");
  cmd->add_option("--capture", o->capture,
                  "Which iteration: auto, mark, pcontrol, call:MPI_Name[:k], off (default auto)");
  cmd->add_option("--capture-iteration", o->capture_iteration, "Iteration to capture with mark/call (default 2)")
      ->check(whole_number(1, INT64_MAX));
  cmd->add_option("--rows", o->rows, "Global row count, for programs that do not say it (MHETA_ROWS)")
      ->check(whole_number(1, INT64_MAX));
  cmd->add_option("--dist", o->dist, "The dist.txt the program runs with (MHETA_DIST; default equal blocks)");
  cmd->add_option("--iterations", o->iterations,
                  "Iterations of the whole run, for the profile (MHETA_ITERATIONS; default: counted from the "
                  "program's iteration marks)")
      ->check(whole_number(1, INT64_MAX));
  cmd->add_option("--row-weights", o->row_weights,
                  "Work of each global row, one number a line (MHETA_ROW_WEIGHTS), for the profile's row_weights");
  cmd->add_option("--profile", o->profile, "Where to write the profile")->capture_default_str();
  cmd->add_option("--accounting-call", o->accounting_call,
                  "With --capture off: every k-th call of this function ends an accounted iteration "
                  "(MHETA_ACCOUNTING_CALL, MPI_Name[:k], or one per rank separated by commas)");
  cmd->add_option("--accounting", o->accounting,
                  "Where to write every iteration's compute, I/O, communication and waiting per rank "
                  "(MHETA_ACCOUNTING; default: none)");
  cmd->add_option("--launcher", o->launcher, kLauncherHelp);
  // The program's first word ends mheta's options: `mheta run -n 2 prog --rows 64`
  // gives --rows to prog (cli/command_line.hpp). `--` before it is optional.
  cmd->prefix_command();
  cmd->footer("The program and its arguments follow mheta run's options (after an optional --).");
  cmd->callback([o, cmd, &exit_code] {
    o->program = program_words(*cmd);
    exit_code = run_reporting_errors("run", [&] { return run_program(*o); });
  });
}

}  // namespace mheta::cli
