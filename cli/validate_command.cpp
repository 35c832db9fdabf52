// mheta validate -n N --app "./jacobi ..." [--emulate PRESET|FILE] [--clock virtual|wall] [--steps K] [--prefetch]
//                [--repeat R] [--seed S] [--cluster C] [--across P1,P2,...] [--microbench-budget S]
//                [--wait sleep|spin] [--work DIR] [-o results.json] [--json]
//
// MHETA §5 on the user's own program and cluster: capture one iteration
// under Blk, predict the spectrum of distributions (Fig 8) and the searched
// best, run the program for real under each, and compare (Fig 9-11).
// With --across, for programs that cannot change their distribution: the
// profile captured under --emulate predicts the program's own distribution
// on each listed emulated cluster, where it then runs.
// Every distribution is run R times, in rounds of a new shuffled order each,
// after an untimed warm-up run, so that the spread of its repeats (the noise
// floor) stands beside the errors (docs/validate.md, "Repeats").
// Resumable: results.json is rewritten atomically after every run, and a
// rerun with the same settings measures only what is missing.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <random>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/app_command_line.hpp"
#include "cli/app_iteration_times.hpp"
#include "cli/child_process.hpp"
#include "cli/clock_option.hpp"
#include "cli/command.hpp"
#include "cli/sibling_file.hpp"
#include "cli/launcher.hpp"
#include "cli/whole_number.hpp"
#include <mheta/exit_codes.hpp>
#include "cli/prediction_report.hpp"
#include "cli/validation_results.hpp"
#include "model/accounting.hpp"
#include "model/cluster.hpp"
#include "model/gen_block.hpp"
#include "model/compute_variation.hpp"
#include "model/in_core_compute.hpp"
#include "model/model.hpp"
#include "model/profile.hpp"
#include "model/profile_median.hpp"
#include "model/output_file.hpp"
#include "model/text_file.hpp"
#include "search/canonical.hpp"
#include "search/method.hpp"
#include "search/search_error.hpp"

namespace mheta::cli {

namespace {

namespace fs = std::filesystem;

struct ValidateOptions {
  int ranks = 0;
  std::string app;
  std::string emulate;
  std::string clock;  // empty: the interposer's default
  int steps = 2;
  int repeat = 3;
  int captures = 3;  // captures of the iteration; the profile holds their medians
  std::uint32_t seed = 1;
  bool prefetch = false;
  int capture_iteration = 0;  // 0: the interposer's default (2)
  std::int64_t rows = 0;      // the program's global rows when it does not say them (mheta run --rows); 0: unknown
  std::string cluster;
  // Validating across clusters: the emulations (presets or files) the
  // program's own distribution is predicted for and run under.
  std::vector<std::string> across;
  double microbench_budget_s = 20;
  std::string wait = "sleep";
  std::string work;
  std::string output = "results.json";
  bool json = false;  // the results on standard output too, the summary on stderr
  std::string launcher;
};

// A program mheta ran failed: the message names its log.
class ProgramFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

model::Json settings_of(const ValidateOptions& o) {
  return {{"ranks", o.ranks},
          {"app", o.app},
          {"emulate", o.emulate},
          {"steps", o.steps},
          {"repeat", o.repeat},
          {"captures", o.captures},
          {"seed", o.seed},
          {"prefetch", o.prefetch},
          {"wait", o.wait},
          {"cluster", o.cluster.empty() ? "measured" : fs::absolute(o.cluster).string()}};
}

model::Json settings_of_run(const ValidateOptions& o) {
  model::Json settings = settings_of(o);
  // Only when given, so results written before the options existed resume.
  if (o.capture_iteration > 0) settings["capture_iteration"] = o.capture_iteration;
  if (o.rows > 0) settings["rows"] = o.rows;
  if (!o.clock.empty()) settings["clock"] = o.clock;
  if (!o.across.empty()) settings["across"] = o.across;
  return settings;
}

// "+1.20 ms", "-350.0 us": a signed difference of two times.
std::string signed_seconds(double seconds) { return (seconds < 0 ? "-" : "+") + human_seconds(std::abs(seconds)); }

// The program's lines and the interposer's records are said to disagree
// past this relative difference (|a - b| / min(a, b)).
constexpr double kSourcesAgree = 0.05;

// A share of the iterations spent waiting for a core past which the summary
// says what it means: the wall-clock target is 5 % mean error, and a
// machine that took as much cannot test it.
constexpr double kMachineShareSaid = 0.05;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

class Validation {
 public:
  explicit Validation(const ValidateOptions& o)
      : o_(o),
        program_(split_command_line(o.app)),
        work_(!o.work.empty()     ? fs::path(o.work)
              : o.output == "-" ? fs::path("mheta-validate-work")
                                : fs::path(fs::path(o.output).replace_extension("").string() + "-work")),
        // -o -: the results are kept (and resumed) in the work folder and
        // printed on standard output at the end; the summary goes to stderr.
        results_file_(o.output == "-" ? (work_ / "results.json").string() : o.output),
        summary_(o.output == "-" || o.json ? std::cerr : std::cout),
        data_(user_data_directory(program_).empty() ? work_ / "data" : fs::path(user_data_directory(program_))),
        mheta_(self_executable()) {}

  int run() {
    resume_or_start();
    fs::create_directories(work_ / "logs");
    fs::create_directories(work_ / "dists");
    results_.profile = capture_profile().string();
    results_.captured_ranks = captured_ranks();
    // Across clusters each distribution names its own cluster.
    results_.cluster = o_.across.empty() ? cluster_file().string() : "";
    if (results_.entries.empty()) {
      if (o_.across.empty()) {
        predict_distributions();
      } else {
        predict_clusters();
      }
    }
    measure_all();
    print_summary();
    return kExitOk;
  }

 private:
  void note(const std::string& text) const { std::cerr << "mheta validate: " << text << std::endl; }

  void save() const { write_validation_results(results_file_, results_); }

  void resume_or_start() {
    results_.settings = settings_of_run(o_);
    if (!fs::exists(results_file_)) return;
    ValidationResults previous = read_validation_results(results_file_);
    if (previous.settings != results_.settings) {
      throw UsageError(results_file_ + " holds results of other settings (" + previous.settings.dump() +
                       "); remove it or give another -o to start afresh");
    }
    std::size_t done = 0;
    for (const ValidationEntry& e : previous.entries) done += e.runs.size();
    note("resuming " + results_file_ + ": " + std::to_string(done) + " of " +
         std::to_string(previous.entries.size() * static_cast<std::size_t>(o_.repeat)) + " runs measured");
    results_ = std::move(previous);
  }

  // `mheta run` with the emulation, the run's waiting, then `extra`
  // options, then the program.
  std::vector<std::string> mheta_run(const std::string& emulate, const std::vector<std::string>& extra,
                                     const std::vector<std::string>& program) const {
    std::vector<std::string> argv = {mheta_.string(), "run", "-n", std::to_string(o_.ranks), "--wait", o_.wait};
    if (!emulate.empty()) argv.insert(argv.end(), {"--emulate", emulate});
    if (!o_.clock.empty()) argv.insert(argv.end(), {"--clock", o_.clock});
    if (!o_.launcher.empty()) argv.insert(argv.end(), {"--launcher", o_.launcher});
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.emplace_back("--");
    argv.insert(argv.end(), program.begin(), program.end());
    return argv;
  }

  // Runs `argv` with its output in logs/<name>.out and .err; returns stdout.
  // `capturing`: mheta run's exit 6 (ran, no profile) is left to the
  // caller, who says what is missing.
  std::string run_logged(const std::vector<std::string>& argv, const std::string& name, bool capturing = false) const {
    const fs::path out = work_ / "logs" / (name + ".out");
    const fs::path err = work_ / "logs" / (name + ".err");
    const ChildStatus status = run_child(argv, {out, err, true});
    const bool no_profile = capturing && status.exited && status.code == kExitNoProfile;
    if (!status.ok() && !no_profile) {
      throw ProgramFailed(argv[0] + " " + argv[1] + " failed (" + status.describe() + "); see " + err.string() +
                          " and " + out.string());
    }
    return model::read_text_file(out);
  }

  // The instrumented iteration, under Blk (the program's default) as in
  // the paper (§5.1), captured --captures times: the profile holds each
  // time's median (docs/model.md, "Several captures").
  fs::path capture_profile() {
    const fs::path profile = work_ / "profile.json";
    if (fs::exists(profile)) return profile;
    note(o_.captures == 1 ? std::string("capturing one iteration under Blk")
                          : "capturing one iteration under Blk, " + std::to_string(o_.captures) + " times");
    const auto start = std::chrono::steady_clock::now();
    std::vector<model::Profile> captures;
    for (int k = 0; k < o_.captures; ++k) captures.push_back(capture_once(k));
    std::vector<model::Profile> alike;
    for (const model::Profile& p : captures) {
      const std::string difference = model::shape_difference(captures.front(), p);
      if (difference.empty()) {
        alike.push_back(p);
      } else {
        note("a capture left out, its iteration differs from the first's: " + difference);
      }
    }
    model::write_profile(profile, model::median_profile(alike));
    note("profile " + profile.string() + " (" + human_seconds(seconds_since(start)) + ")");
    return profile;
  }

  // The capture runs' own steady terms, from the records each kept (also
  // when resuming: the records stay in the work directory).
  std::vector<model::IterationTerms> captured_ranks() const {
    std::vector<std::vector<model::IterationTerms>> runs;
    for (int k = 0; k < o_.captures; ++k) {
      const fs::path records = work_ / ("capture" + capture_suffix(k) + ".accounting.json");
      if (!fs::exists(records)) continue;
      std::vector<model::IterationTerms> ranks;
      for (const auto& rank : model::read_accounting(records).ranks) ranks.push_back(model::steady_terms(rank));
      runs.push_back(std::move(ranks));
    }
    return median_ranks(runs);
  }

  static std::string capture_suffix(int k) { return k == 0 ? "" : "-" + std::to_string(k + 1); }

  // Capture k (from 0): the program run once with the interposer capturing,
  // its records kept beside (the first one's as capture.accounting.json,
  // which the measured runs take their iteration boundary from), and the
  // compute of the ranks that went back in core after the captured
  // iteration (docs/model.md, "Compute in core").
  model::Profile capture_once(int k) {
    const std::string suffix = capture_suffix(k);
    const fs::path partial = work_ / ("profile" + suffix + ".partial.json");
    const fs::path records = work_ / ("capture" + suffix + ".accounting.json");
    const fs::path data = data_ / "mheta-validate-capture";
    std::vector<std::string> capture = {"--profile", partial.string(), "--accounting", records.string()};
    if (o_.capture_iteration > 0) {
      capture.insert(capture.end(), {"--capture-iteration", std::to_string(o_.capture_iteration)});
    }
    if (o_.rows > 0) capture.insert(capture.end(), {"--rows", std::to_string(o_.rows)});
    run_logged(mheta_run(o_.emulate, capture, app_arguments(program_, {{}, data, o_.prefetch})), "capture" + suffix,
               true);
    fs::remove_all(data);
    if (!fs::exists(partial)) throw ProgramFailed("the program wrote no profile; see " + (work_ / "logs").string());
    model::Profile profile = model::read_profile(partial);
    if (fs::exists(records)) {
      const model::Accounting run = model::read_accounting(records);
      model::record_in_core_compute(profile, run);
      model::record_compute_variation(profile, run);
    }
    const fs::path kept = work_ / ("profile.capture" + std::to_string(k + 1) + ".json");
    model::write_profile(kept, profile);
    fs::remove(partial);
    return profile;
  }

  // The cluster as the program will see it: measured under the same
  // emulation and the same waiting (docs/microbench.md, "Emulated clusters").
  fs::path cluster_file() {
    if (!o_.cluster.empty()) return fs::absolute(o_.cluster);
    return measured_cluster(o_.emulate, "cluster");
  }

  // The cluster measured under `emulate`, <work>/<name>.json (kept, so a
  // rerun resumes without measuring it again).
  fs::path measured_cluster(const std::string& emulate, const std::string& name) {
    const fs::path cluster = work_ / (name + ".json");
    if (fs::exists(cluster)) return cluster;
    char budget[32];
    std::snprintf(budget, sizeof budget, "%g", o_.microbench_budget_s);
    note(std::string("measuring the cluster (mheta-microbench, budget ") + budget + " s)");
    const auto start = std::chrono::steady_clock::now();
    const fs::path partial = work_ / (name + ".partial.json");
    run_logged(mheta_run(emulate, {"--capture", "off"},
                         {microbench_program(), "-o", partial.string(), "--budget", budget, "--progress", "never"}),
               name == "cluster" ? "microbench" : "microbench-" + name);
    fs::rename(partial, cluster);
    note("cluster " + cluster.string() + " (" + human_seconds(seconds_since(start)) + ")");
    return cluster;
  }

  void predict_distributions() {
    const model::Profile profile = model::read_profile(results_.profile);
    const model::Cluster cluster = model::read_cluster(results_.cluster);
    const model::Model model(profile, cluster);
    if (const std::string warning = model.normalization_warning(); !warning.empty()) {
      note("warning: " + results_.profile + ": " + warning);
    }
    const search::RowBounds bounds = search::row_bounds(model, 0);
    const auto add = [&](const std::string& name, const char* kind, const model::GenBlock& dist) {
      ValidationEntry e;
      e.name = name;
      e.kind = kind;
      e.rows = dist.rows;
      const model::Prediction p = model.predict(dist.rows);
      e.predicted_s = p.typical_iteration_s;  // as the runs are measured: each rank's median
      e.prediction = prediction_to_json(p);
      results_.entries.push_back(std::move(e));
    };
    for (const search::NamedDistribution& d : search::spectrum(model, bounds, o_.steps))
      add(d.name, "spectrum", d.dist);
    const search::SearchResult best = search::run_search(model, cluster, "gbs", {});
    add("GBS", "searched", best.dist);
    save();
    note(std::to_string(results_.entries.size()) + " distributions predicted (spectrum of " + std::to_string(o_.steps) +
         " steps per leg, and GBS); results in " + results_file_);
  }

  // Across clusters (--across): the profile's own distribution, predicted on
  // the cluster measured under each emulation.
  void predict_clusters() {
    const model::Profile profile = model::read_profile(results_.profile);
    for (std::size_t i = 0; i < o_.across.size(); ++i) {
      const std::string& emulate = o_.across[i];
      char name[32];
      std::snprintf(name, sizeof name, "cluster-%02zu", i);
      ValidationEntry e;
      e.name = fs::path(emulate).stem().string();
      e.kind = "cluster";
      e.rows = profile.distribution.rows;
      e.emulate = emulate;
      e.cluster = measured_cluster(emulate, name).string();
      const model::Model model(profile, model::read_cluster(e.cluster));
      if (const std::string warning = model.normalization_warning(); !warning.empty()) {
        note("warning: " + results_.profile + ": " + warning);
      }
      const model::Prediction p = model.predict(e.rows);
      e.predicted_s = p.typical_iteration_s;  // as the runs are measured: each rank's median
      e.prediction = prediction_to_json(p);
      results_.entries.push_back(std::move(e));
    }
    save();
    note(std::to_string(results_.entries.size()) + " clusters predicted from the profile captured " +
         (o_.emulate.empty() ? std::string("unemulated") : "under " + o_.emulate) + "; results in " + results_file_);
  }

  // Runs the program under the entry's rows (its own distribution and the
  // entry's emulation across clusters) with the run's options and the
  // interposer's accounting; `id` names its log, records and data directory.
  ValidationRun run_distribution(const ValidationEntry& entry, const std::string& id) {
    const bool across = entry.kind == "cluster";
    const fs::path dist = across ? fs::path() : fs::absolute(work_ / "dists" / (id + ".txt"));
    if (!across) model::write_gen_block(dist, model::GenBlock{entry.rows});
    const fs::path data = data_ / ("mheta-validate-" + id);
    const fs::path records = work_ / "logs" / (id + ".accounting.json");
    fs::remove(records);
    std::vector<std::string> options = {"--capture", "off", "--accounting", records.string()};
    if (!across) options.insert(options.end(), {"--dist", dist.string()});
    if (const std::string call = iteration_call(); !call.empty()) options.insert(options.end(), {"--accounting-call", call});
    const std::string out = run_logged(
        mheta_run(across ? entry.emulate : o_.emulate, options, app_arguments(program_, {dist, data, o_.prefetch})), id);
    fs::remove_all(data);
    return measured_run(out, (work_ / "logs" / (id + ".out")).string(), records);
  }

  // The call that ended the captured run's iterations when the program
  // marked none (automatic detection's period, docs/interpose.md
  // "Accounting"), so that the runs with capture off end theirs there too;
  // empty when marks or MPI_Pcontrol ended them, or nothing did.
  std::string iteration_call() const {
    const fs::path records = work_ / "capture.accounting.json";
    if (!fs::exists(records)) return "";
    const model::Accounting capture = model::read_accounting(records);
    return capture.boundary == "call" ? capture.call : "";
  }

  // A run's time and terms. The program's iteration lines are its time when
  // it prints them (what its users read, and what results before the
  // interposer's records held); the records' time stands beside them, and a
  // disagreement beyond the noise is said. A program that prints none is
  // timed by the records (docs/validate.md, "Any MPI program").
  ValidationRun measured_run(const std::string& out, const std::string& log, const fs::path& records) const {
    const AppIterationTimes times = parse_app_output(out, log);
    ValidationRun run;
    run.iteration_seconds = times.seconds;
    run.check = times.check;
    const model::Accounting accounting = fs::exists(records) ? model::read_accounting(records) : model::Accounting{};
    for (const std::vector<model::IterationTerms>& rank : accounting.ranks) run.ranks.push_back(model::steady_terms(rank));
    const double accounted = model::accounted_iteration_seconds(accounting);
    if (accounted > 0) run.accounted_s = accounted;
    run.queued_share = model::queued_share(accounting);
    if (!times.seconds.empty()) {
      run.actual_s = steady_state_seconds(times, log);
      if (run.accounted_s && prediction_error(run.actual_s, *run.accounted_s) > kSourcesAgree) {
        note(log + ": the program's iteration lines say " + human_seconds(run.actual_s) +
             " per iteration, the interposer's records " + human_seconds(*run.accounted_s) +
             "; the lines are kept (their iterations may not be the ones the records end at the marks)");
      }
      return run;
    }
    if (!run.accounted_s) {
      throw ProgramFailed(log +
                          ": the program printed no iteration lines and the interposer counted no iterations (its "
                          "capture found no repeating loop); mark them (mheta_iteration() from <mheta/marks.h>, or "
                          "MPI_Pcontrol(1) at the start of each)");
    }
    run.source = "accounted";
    run.actual_s = *run.accounted_s;
    // Each iteration's slowest rank, as the program's lines would say.
    run.iteration_seconds.clear();
    for (const std::vector<model::IterationTerms>& rank : accounting.ranks) {
      for (std::size_t k = 0; k < rank.size(); ++k) {
        if (run.iteration_seconds.size() <= k) run.iteration_seconds.push_back(0);
        run.iteration_seconds[k] = std::max(run.iteration_seconds[k], rank[k].total_s);
      }
    }
    return run;
  }

  // An untimed run under Blk before the first measured one: the first run of
  // a series pays for what the later ones find ready (the program's pages,
  // the file system's metadata, the page cache), which once made Blk's first
  // measurement 44 % slower than its second.
  void warm_up() {
    if (results_.entries.empty()) return;
    for (const ValidationEntry& e : results_.entries) {
      if (e.measured()) return;
    }
    note("warm-up run under " + results_.entries.front().name + " (not measured)");
    run_distribution(results_.entries.front(), "warmup");
  }

  // Round r runs every distribution that has fewer than r + 1 runs, in an
  // order shuffled anew for each round, so that slow drifts of the machine
  // (another job, the page cache filling) fall on every distribution alike
  // rather than on the ones that happen to run last.
  void measure_all() {
    warm_up();
    const std::size_t n = results_.entries.size();
    const std::size_t total = n * static_cast<std::size_t>(o_.repeat);
    std::size_t done = 0;
    for (const ValidationEntry& e : results_.entries) done += std::min(e.runs.size(), static_cast<std::size_t>(o_.repeat));
    for (int round = 0; round < o_.repeat; ++round) {
      std::vector<std::size_t> order(n);
      std::iota(order.begin(), order.end(), 0);
      std::mt19937 shuffle(o_.seed + static_cast<std::uint32_t>(round));
      std::shuffle(order.begin(), order.end(), shuffle);
      for (const std::size_t i : order) {
        ValidationEntry& e = results_.entries[i];
        if (e.runs.size() > static_cast<std::size_t>(round)) continue;
        char id[32];
        std::snprintf(id, sizeof id, "%02zu-r%d", i, round + 1);
        const auto start = std::chrono::steady_clock::now();
        ValidationRun run = run_distribution(e, id);
        run.round = round;
        e.runs.push_back(std::move(run));
        save();
        ++done;
        char line[320];
        std::snprintf(line, sizeof line,
                      "[%zu/%zu] %-16s round %d/%d  predicted %12s  actual %12s  error %6.1f%%  (%s)", done, total,
                      e.name.c_str(), round + 1, o_.repeat, human_seconds(e.predicted_s).c_str(),
                      human_seconds(e.runs.back().actual_s).c_str(),
                      100 * prediction_error(e.predicted_s, e.runs.back().actual_s),
                      human_seconds(seconds_since(start)).c_str());
        note(line);
      }
    }
  }

  void print_summary() const {
    summary_ << "mheta validate: " << program_[0] << " on " << o_.ranks << " ranks"
              << (o_.emulate.empty() ? "" : ", emulated " + o_.emulate) << (o_.prefetch ? ", prefetch" : "")
              << "\n  seconds per iteration; actual = median over " << o_.repeat
              << " runs of the slowest rank's median iteration after the first; spread = (max - min) / median of "
                 "the runs\n\n";
    char line[400];
    std::snprintf(line, sizeof line, "  %-16s %14s %14s %8s %8s  %s\n", "distribution", "predicted", "actual", "error",
                  "spread", "largest term error (measured - predicted)");
    summary_ << line;
    for (const ValidationEntry& e : results_.entries) {
      const std::optional<TermError> largest = e.largest_term_error();
      std::snprintf(line, sizeof line, "  %-16s %14s %14s %7.1f%% %7.1f%%  %s\n", e.name.c_str(),
                    human_seconds(e.predicted_s).c_str(), human_seconds(e.actual_s()).c_str(),
                    100 * prediction_error(e.predicted_s, e.actual_s()), 100 * e.relative_spread(),
                    largest ? (largest->term + " on rank " + std::to_string(largest->rank) + " " +
                               signed_seconds(largest->measured_s - largest->predicted_s))
                                  .c_str()
                            : "-");
      summary_ << line;
    }
    const ValidationSummary s = summarize(results_);
    std::snprintf(line, sizeof line, "\n  error (|p-a|/min(p,a))  min %.1f%%  mean %.1f%%  max %.1f%%\n",
                  100 * s.error_min, 100 * s.error_mean, 100 * s.error_max);
    summary_ << line;
    if (s.noise_floor) {
      std::snprintf(line, sizeof line,
                    "  noise floor (median spread of the repeats) %.1f%%, largest spread %.1f%%; %d of %d errors "
                    "exceed their distribution's spread\n",
                    100 * *s.noise_floor, 100 * *s.noise_max, s.errors_beyond_noise, s.measured);
      summary_ << line;
    }
    if (s.capture_drift) {
      std::snprintf(line, sizeof line,
                    "  capture drift: the capture runs' compute was %+.1f%% of the Blk runs' (median over ranks)%s\n",
                    100 * *s.capture_drift,
                    s.noise_floor && std::abs(*s.capture_drift) > *s.noise_floor
                        ? ", beyond the noise floor: the profile was taken while the machine ran the program "
                          "at another pace than in the runs"
                        : "");
      summary_ << line;
    }
    if (s.machine_share) {
      std::snprintf(line, sizeof line,
                    "  the machine: ranks waited for a core up to %.1f%% of an iteration (median of a "
                    "distribution's runs)%s\n",
                    100 * *s.machine_share,
                    *s.machine_share > kMachineShareSaid
                        ? ", time other processes (or more ranks than cores) took from the program; errors of "
                          "that size are the machine's as much as the model's"
                        : "");
      summary_ << line;
    }
    if (s.worst_term) {
      summary_ << "  most of the error (" << s.worst_distribution << ", the largest error): " << s.worst_term->term
               << " on rank " << s.worst_term->rank << ", predicted " << human_seconds(s.worst_term->predicted_s)
               << ", measured " << human_seconds(s.worst_term->measured_s) << "\n";
    }
    std::snprintf(line, sizeof line,
                  "  predicted best %s, measured best %s: %s (the predicted best is %.1f%% slower)\n",
                  s.predicted_best.c_str(), s.measured_best.c_str(),
                  s.predicted_best_is_measured_best ? "same" : "different", 100 * s.predicted_best_excess);
    summary_ << line;
    if (s.spectrum_best_over_searched) {
      std::snprintf(line, sizeof line, "  best of the spectrum (%s) vs GBS: %+.1f%%\n", s.spectrum_best.c_str(),
                    100 * *s.spectrum_best_over_searched);
      summary_ << line;
    }
    if (s.chosen_speedup_over_blk) {
      const ValidationEntry& blk = results_.entries.front();
      std::snprintf(line, sizeof line, "  Blk %s per iteration, the predicted best (%s) %s: %.2fx\n",
                    human_seconds(blk.actual_s()).c_str(), s.predicted_best.c_str(),
                    human_seconds(blk.actual_s() / *s.chosen_speedup_over_blk).c_str(), *s.chosen_speedup_over_blk);
      summary_ << line;
      if (*s.chosen_speedup_over_blk < 1) {
        summary_ << "  warning: the predicted best ran slower than Blk; the model is wrong for this program or "
                     "cluster (see the per-rank breakdown in the report)\n";
      }
    }
    summary_ << "  wrote " << results_file_ << "\n";
    if (o_.output == "-" || o_.json) model::write_output("-", model::read_text_file(results_file_));
  }

  const ValidateOptions& o_;
  std::vector<std::string> program_;
  fs::path work_;
  std::string results_file_;
  std::ostream& summary_;
  fs::path data_;
  fs::path mheta_;
  ValidationResults results_;
};

}  // namespace

void add_validate_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ValidateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "validate", "Run a program under a spectrum of distributions and compare its times with the predictions");
  cmd->add_option("-n,--np", o->ranks, "Number of ranks")->required()->check(whole_number(1, kMaxRanks));
  cmd->add_option("--app", o->app, "The program and its arguments, as one string (\"./jacobi --iters 10\")")
      ->required();
  cmd->add_option("--emulate", o->emulate, "Emulated cluster: a preset (DC, IO, HY1, HY2) or an emulation file");
  add_clock_option(*cmd, o->clock);
  cmd->add_option("--steps", o->steps, "Steps per leg of the spectrum Blk -> I-C -> I-C/Bal -> Bal -> Blk")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--repeat", o->repeat,
                  "Runs of every distribution, in rounds of a new shuffled order each; the median is its time, "
                  "and the spread of the runs the noise floor")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--captures", o->captures,
                  "Captures of the iteration under Blk; the profile holds the median of each time over them "
                  "(one capture is one sample of a shared machine's noise)")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "Seed of the rounds' shuffled order")->capture_default_str();
  cmd->add_flag("--prefetch", o->prefetch, "Run the program with --prefetch");
  cmd->add_option("--capture-iteration", o->capture_iteration,
                  "Iteration to capture, for programs that mark their iterations (default 2: the first after "
                  "the one that creates the data, as for redistribution after it)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--rows", o->rows,
                  "Global rows of a program that does not say them (mheta run --rows), for the profile's "
                  "distribution and bytes per row")
      ->check(whole_number(1, INT64_MAX));
  cmd->add_option("--cluster", o->cluster, "cluster.json to predict with (default: measure it under the emulation)");
  cmd->add_option("--across", o->across,
                  "Validate across clusters, for programs that cannot change their distribution: predict the "
                  "profile captured under --emulate (or unemulated) on each of these emulated clusters (presets "
                  "or files, comma-separated), each measured under its emulation, and run the program there")
      ->delimiter(',')
      ->excludes("--cluster");
  cmd->add_option("--microbench-budget", o->microbench_budget_s, "Seconds for measuring the cluster")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--wait", o->wait, "How blocked ranks wait: sleep or spin")
      ->check(CLI::IsMember({"sleep", "spin"}))
      ->capture_default_str();
  cmd->add_option("--work", o->work,
                  "Folder for the profile, cluster, distributions and logs (default: "
                  "<output without .json>-work)");
  cmd->add_option("--launcher", o->launcher, kLauncherHelp);
  cmd->add_option("-o,--output", o->output, "Where the results go (JSON; - for standard output)")->capture_default_str();
  cmd->add_flag("--json", o->json,
                "Print the results on standard output as well (docs/schemas/validation.schema.json); the summary "
                "goes to stderr, and -o keeps the file that a rerun resumes");
  cmd->callback([o, &exit_code] {
    exit_code = run_reporting_errors("validate", [&]() -> int {
      try {
        if (!is_clock_mode(o->clock)) throw UsageError(clock_usage(o->clock));
        return Validation(*o).run();
      } catch (const std::invalid_argument& error) {
        std::cerr << "mheta validate: --app: " << error.what() << "\n";
        return kExitUsage;
      } catch (const ProgramFailed& error) {
        std::cerr << "mheta validate: " << error.what() << "\n";
        return kExitProgramFailed;
      } catch (const search::SearchError& error) {
        std::cerr << "mheta validate: " << error.what() << "\n";
        return kExitBadInput;
      }
    });
  });
}

}  // namespace mheta::cli
