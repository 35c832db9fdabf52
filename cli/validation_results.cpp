#include "cli/validation_results.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "model/text_file.hpp"

namespace mheta::cli {

double prediction_error(double predicted, double actual) {
  const double smaller = std::min(predicted, actual);
  if (smaller <= 0) return predicted == actual ? 0.0 : std::numeric_limits<double>::infinity();
  return std::abs(predicted - actual) / smaller;
}

double median_of(std::vector<double> values) { return model::median_of(std::move(values)); }

namespace {

std::vector<double> run_times(const std::vector<ValidationRun>& runs) {
  std::vector<double> times;
  times.reserve(runs.size());
  for (const ValidationRun& r : runs) times.push_back(r.actual_s);
  return times;
}

}  // namespace

double ValidationEntry::actual_s() const { return median_of(run_times(runs)); }

double ValidationEntry::actual_min_s() const {
  const std::vector<double> t = run_times(runs);
  return t.empty() ? 0 : *std::min_element(t.begin(), t.end());
}

double ValidationEntry::actual_max_s() const {
  const std::vector<double> t = run_times(runs);
  return t.empty() ? 0 : *std::max_element(t.begin(), t.end());
}

double ValidationEntry::relative_spread() const {
  const double median = actual_s();
  if (runs.size() < 2 || median <= 0) return 0;
  return (actual_max_s() - actual_min_s()) / median;
}

std::string ValidationEntry::check() const {
  for (const ValidationRun& r : runs) {
    if (r.check != "PASS") return r.check;
  }
  return runs.empty() ? "" : "PASS";
}

std::vector<model::IterationTerms> median_ranks(const std::vector<std::vector<model::IterationTerms>>& runs) {
  std::size_t ranks = 0;
  for (const auto& r : runs) ranks = std::max(ranks, r.size());
  std::vector<model::IterationTerms> medians;
  for (std::size_t rank = 0; rank < ranks; ++rank) {
    std::array<double, model::IterationTerms::kCount> v{};
    for (std::size_t t = 0; t < v.size(); ++t) {
      std::vector<double> column;
      for (const auto& r : runs) {
        if (rank < r.size()) column.push_back(r[rank].values()[t]);
      }
      v[t] = median_of(column);
    }
    medians.push_back(model::IterationTerms::from(v));
  }
  return medians;
}

std::vector<model::IterationTerms> ValidationEntry::measured_ranks() const {
  std::vector<std::vector<model::IterationTerms>> per_run;
  for (const ValidationRun& r : runs) per_run.push_back(r.ranks);
  return median_ranks(per_run);
}

std::vector<model::IterationTerms> ValidationEntry::predicted_ranks() const {
  std::vector<model::IterationTerms> ranks;
  const auto found = prediction.find("ranks");
  if (found == prediction.end() || !found->is_array()) return ranks;
  for (const model::Json& b : *found) {
    const auto term = [&b](const char* key) { return b.contains(key) && b[key].is_number() ? b[key].get<double>() : 0.0; };
    ranks.push_back({term("compute_s"), term("io_s"), term("comm_s"), term("wait_s"), term("total_s")});
  }
  return ranks;
}

// A rank's waiting is mostly the other ranks' compute and I/O: the
// bottleneck (the rank measured to wait least) is the one whose waiting,
// with its communication, is its own (the transfers and collective costs
// the model prices), so that sum is compared there only; compute and I/O
// on every rank.
std::optional<TermError> ValidationEntry::largest_term_error() const {
  const std::vector<model::IterationTerms> measured = measured_ranks();
  const std::vector<model::IterationTerms> predicted = predicted_ranks();
  const std::size_t ranks = std::min(measured.size(), predicted.size());
  std::size_t bottleneck = 0;
  for (std::size_t r = 1; r < ranks; ++r) {
    if (measured[r].wait_s < measured[bottleneck].wait_s) bottleneck = r;
  }
  std::optional<TermError> largest;
  const auto consider = [&largest](const TermError& c) {
    if (!largest || std::abs(c.predicted_s - c.measured_s) > std::abs(largest->predicted_s - largest->measured_s)) {
      largest = c;
    }
  };
  for (std::size_t r = 0; r < ranks; ++r) {
    const model::IterationTerms& p = predicted[r];
    const model::IterationTerms& m = measured[r];
    consider({"compute", static_cast<int>(r), p.compute_s, m.compute_s});
    consider({"I/O", static_cast<int>(r), p.io_s, m.io_s});
    if (r == bottleneck) {
      consider({"communication and waiting", static_cast<int>(r), p.comm_s + p.wait_s, m.comm_s + m.wait_s});
    }
  }
  return largest;
}

namespace {

// Index of the entry with the smallest `key` among those `take` accepts, or -1.
template <typename Take, typename Key>
int smallest(const std::vector<ValidationEntry>& entries, Take take, Key key) {
  int best = -1;
  for (int i = 0; i < static_cast<int>(entries.size()); ++i) {
    if (take(entries[i]) && (best < 0 || key(entries[i]) < key(entries[best]))) best = i;
  }
  return best;
}

}  // namespace

ValidationSummary summarize(const ValidationResults& results) {
  ValidationSummary s;
  const auto& e = results.entries;
  s.distributions = static_cast<int>(e.size());
  double sum = 0;
  std::vector<double> spreads;
  for (const ValidationEntry& entry : e) {
    if (!entry.measured()) continue;
    const double error = prediction_error(entry.predicted_s, entry.actual_s());
    s.error_min = s.measured == 0 ? error : std::min(s.error_min, error);
    s.error_max = s.measured == 0 ? error : std::max(s.error_max, error);
    sum += error;
    ++s.measured;
    if (entry.runs.size() >= 2) {
      spreads.push_back(entry.relative_spread());
      if (error > entry.relative_spread()) ++s.errors_beyond_noise;
    }
  }
  if (s.measured == 0) return s;
  s.error_mean = sum / s.measured;
  if (!spreads.empty()) {
    s.noise_floor = median_of(spreads);
    s.noise_max = *std::max_element(spreads.begin(), spreads.end());
  }
  const auto measured = [](const ValidationEntry& x) { return x.measured(); };
  const auto predicted = [](const ValidationEntry& x) { return x.predicted_s; };
  const auto actual = [](const ValidationEntry& x) { return x.actual_s(); };
  const int p = smallest(e, measured, predicted);
  const int a = smallest(e, measured, actual);
  s.predicted_best = e[p].name;
  s.measured_best = e[a].name;
  // Two entries can hold the same rows (the spectrum returns to Blk, GBS may
  // find a spectrum point): the same distribution is the same choice.
  // Across clusters every entry holds the program's own rows: the choice is
  // the cluster.
  s.predicted_best_is_measured_best = p == a || (e[p].kind != "cluster" && e[p].rows == e[a].rows);
  s.predicted_best_excess = e[p].actual_s() / e[a].actual_s() - 1;
  const int b = smallest(
      e, [](const ValidationEntry& x) { return x.measured() && x.kind == "spectrum"; }, actual);
  const int g = smallest(
      e, [](const ValidationEntry& x) { return x.measured() && x.kind == "searched"; }, actual);
  if (b >= 0) s.spectrum_best = e[b].name;
  if (b >= 0 && g >= 0) s.spectrum_best_over_searched = e[b].actual_s() / e[g].actual_s() - 1;
  // The spectrum starts at Blk (search::spectrum).
  if (!e.empty() && e.front().name == "Blk" && e.front().measured()) {
    s.chosen_speedup_over_blk = e.front().actual_s() / e[p].actual_s();
  }
  const int w = smallest(
      e, [](const ValidationEntry& x) { return x.measured(); },
      [](const ValidationEntry& x) { return -prediction_error(x.predicted_s, x.actual_s()); });
  s.worst_distribution = e[w].name;
  s.worst_term = e[w].largest_term_error();
  for (const ValidationEntry& entry : e) {
    std::vector<double> shares;
    for (const ValidationRun& r : entry.runs) {
      if (r.queued_share) shares.push_back(*r.queued_share);
    }
    if (!shares.empty()) s.machine_share = std::max(s.machine_share.value_or(0), median_of(shares));
  }
  if (!results.captured_ranks.empty() && e.front().name == "Blk" && e.front().measured()) {
    const std::vector<model::IterationTerms> blk = e.front().measured_ranks();
    std::vector<double> drifts;
    for (std::size_t r = 0; r < blk.size() && r < results.captured_ranks.size(); ++r) {
      if (blk[r].compute_s > 0) drifts.push_back(results.captured_ranks[r].compute_s / blk[r].compute_s - 1);
    }
    if (!drifts.empty()) s.capture_drift = median_of(drifts);
  }
  return s;
}

namespace {

model::Json terms_to_json(const model::IterationTerms& t) {
  return {{"compute_s", t.compute_s}, {"io_s", t.io_s}, {"comm_s", t.comm_s}, {"wait_s", t.wait_s}, {"total_s", t.total_s}};
}

model::Json ranks_to_json(const std::vector<model::IterationTerms>& ranks) {
  model::Json out = model::Json::array();
  for (const model::IterationTerms& t : ranks) out.push_back(terms_to_json(t));
  return out;
}

model::Json term_error_to_json(const TermError& t) {
  return {{"term", t.term}, {"rank", t.rank}, {"predicted_s", t.predicted_s}, {"measured_s", t.measured_s}};
}

}  // namespace

model::Json validation_to_json(const ValidationResults& results) {
  model::Json entries = model::Json::array();
  for (const ValidationEntry& e : results.entries) {
    model::Json j = {{"name", e.name},
                     {"kind", e.kind},
                     {"rows", e.rows},
                     {"predicted", e.predicted_s},
                     {"prediction", e.prediction}};
    if (!e.emulate.empty()) j["emulate"] = e.emulate;
    if (!e.cluster.empty()) j["cluster"] = e.cluster;
    if (e.measured()) {
      model::Json runs = model::Json::array();
      for (const ValidationRun& r : e.runs) {
        model::Json run = {{"round", r.round},
                           {"actual", r.actual_s},
                           {"source", r.source},
                           {"iteration_seconds", r.iteration_seconds},
                           {"check", r.check}};
        if (r.accounted_s) run["accounted"] = *r.accounted_s;
        if (r.queued_share) run["queued_share"] = *r.queued_share;
        if (!r.ranks.empty()) run["ranks"] = ranks_to_json(r.ranks);
        runs.push_back(std::move(run));
      }
      j["runs"] = std::move(runs);
      j["actual"] = e.actual_s();
      j["actual_min"] = e.actual_min_s();
      j["actual_max"] = e.actual_max_s();
      j["spread"] = e.relative_spread();
      j["error"] = prediction_error(e.predicted_s, e.actual_s());
      j["check"] = e.check();
      const std::vector<model::IterationTerms> measured = e.measured_ranks();
      if (!measured.empty()) j["measured_ranks"] = ranks_to_json(measured);
      if (const auto largest = e.largest_term_error()) j["largest_term_error"] = term_error_to_json(*largest);
    }
    entries.push_back(std::move(j));
  }
  const ValidationSummary s = summarize(results);
  model::Json summary = {{"distributions", s.distributions}, {"measured", s.measured}};
  if (s.measured > 0) {
    summary.update({{"error_min", s.error_min},
                    {"error_mean", s.error_mean},
                    {"error_max", s.error_max},
                    {"predicted_best", s.predicted_best},
                    {"measured_best", s.measured_best},
                    {"predicted_best_is_measured_best", s.predicted_best_is_measured_best},
                    {"predicted_best_excess", s.predicted_best_excess},
                    {"spectrum_best", s.spectrum_best}});
    if (s.spectrum_best_over_searched) summary["spectrum_best_over_searched"] = *s.spectrum_best_over_searched;
    if (s.noise_floor) {
      summary["noise_floor"] = *s.noise_floor;
      summary["noise_max"] = *s.noise_max;
      summary["errors_beyond_noise"] = s.errors_beyond_noise;
    }
    if (s.chosen_speedup_over_blk) summary["predicted_best_speedup_over_blk"] = *s.chosen_speedup_over_blk;
    summary["worst_distribution"] = s.worst_distribution;
    if (s.worst_term) summary["worst_term"] = term_error_to_json(*s.worst_term);
    if (s.capture_drift) summary["capture_drift"] = *s.capture_drift;
    if (s.machine_share) summary["machine_share"] = *s.machine_share;
  }
  model::Json document = {{"format", kValidationFormat},
          {"settings", results.settings},
          {"profile", results.profile},
          {"cluster", results.cluster},
          {"seconds",
           "per iteration; a run's actual = the slowest rank's median iteration after the first (index 0 "
           "excluded: it creates or opens the data); a distribution's actual = the median of its runs; "
           "spread = (max - min) / median of its runs; predicted = the MHETA model's time of one iteration; "
           "a run's ranks = each term's median over the iterations after the first, from the interposer's "
           "records, in the run's clock"},
          {"error", "|predicted - actual| / min(predicted, actual) (MHETA 5.2.1)"},
          {"distributions", entries},
          {"summary", summary}};
  if (!results.captured_ranks.empty()) document["captured_ranks"] = ranks_to_json(results.captured_ranks);
  return document;
}

namespace {

model::IterationTerms read_terms(const model::JsonFields& f, const model::Json& j, const std::string& at) {
  if (!j.is_object()) f.fail(at, "expected an object of compute_s, io_s, comm_s, wait_s, total_s");
  return {f.non_negative(j, "compute_s", at), f.non_negative(j, "io_s", at), f.non_negative(j, "comm_s", at),
          f.non_negative(j, "wait_s", at), f.non_negative(j, "total_s", at)};
}

ValidationRun read_run(const model::JsonFields& f, const model::Json& j, const std::string& at, bool has_round) {
  ValidationRun run;
  if (has_round) run.round = static_cast<int>(f.integer(j, "round", at));
  run.actual_s = f.non_negative(j, "actual", at);
  const model::Json& seconds = f.array(j, "iteration_seconds", at);
  for (std::size_t k = 0; k < seconds.size(); ++k) {
    run.iteration_seconds.push_back(
        f.non_negative_value(seconds[k], model::index_path(model::field_path(at, "iteration_seconds"), k)));
  }
  run.check = f.string(j, "check", at);
  if (f.optional_member(j, "source", at) != nullptr) {
    run.source = f.string(j, "source", at);
    if (run.source != "printed" && run.source != "accounted") {
      f.fail(model::field_path(at, "source"), "expected printed or accounted");
    }
  }
  if (f.optional_member(j, "accounted", at) != nullptr) run.accounted_s = f.non_negative(j, "accounted", at);
  if (f.optional_member(j, "queued_share", at) != nullptr) run.queued_share = f.non_negative(j, "queued_share", at);
  if (f.optional_member(j, "ranks", at) != nullptr) {
    const std::string ranks_at = model::field_path(at, "ranks");
    const model::Json& ranks = f.array(j, "ranks", at);
    for (std::size_t r = 0; r < ranks.size(); ++r) run.ranks.push_back(read_terms(f, ranks[r], model::index_path(ranks_at, r)));
  }
  return run;
}

}  // namespace

ValidationResults read_validation_results(const std::filesystem::path& path) {
  const model::JsonFields f(path.string());
  const model::Json doc = model::parse_json_text(model::read_text_file(path), path.string());
  if (!doc.is_object()) f.fail("", "expected a JSON object");
  // The first format held one run per distribution, at the entry itself.
  const std::string format = doc.value("format", std::string());
  const bool one_run_each = format == kValidationFormatOneRun;
  if (!one_run_each && format != kValidationFormatRepeats) f.expect_format(doc, kValidationFormat);
  ValidationResults r;
  r.settings = f.object(doc, "settings", "");
  r.profile = f.string(doc, "profile", "");
  r.cluster = f.string(doc, "cluster", "");
  const model::Json& entries = f.array(doc, "distributions", "");
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string at = model::index_path("distributions", i);
    const model::Json& j = entries[i];
    if (!j.is_object()) f.fail(at, "expected an object");
    ValidationEntry e;
    e.name = f.string(j, "name", at);
    e.kind = f.string(j, "kind", at);
    if (e.kind != "spectrum" && e.kind != "searched" && e.kind != "cluster")
      f.fail(model::field_path(at, "kind"), "expected spectrum, searched or cluster");
    if (e.kind == "cluster") {
      e.emulate = f.string(j, "emulate", at);
      e.cluster = f.string(j, "cluster", at);
    }
    const model::Json& rows = f.array(j, "rows", at);
    for (std::size_t k = 0; k < rows.size(); ++k) {
      e.rows.push_back(f.integer_value(rows[k], model::index_path(model::field_path(at, "rows"), k)));
    }
    e.predicted_s = f.non_negative(j, "predicted", at);
    e.prediction = f.object(j, "prediction", at);
    if (one_run_each) {
      if (f.optional_member(j, "actual", at) != nullptr) e.runs.push_back(read_run(f, j, at, false));
    } else if (f.optional_member(j, "runs", at) != nullptr) {
      const std::string runs_at = model::field_path(at, "runs");
      const model::Json& runs = f.array(j, "runs", at);
      for (std::size_t k = 0; k < runs.size(); ++k) {
        if (!runs[k].is_object()) f.fail(model::index_path(runs_at, k), "expected an object");
        e.runs.push_back(read_run(f, runs[k], model::index_path(runs_at, k), true));
      }
    }
    r.entries.push_back(std::move(e));
  }
  if (f.optional_member(doc, "captured_ranks", "") != nullptr) {
    const model::Json& ranks = f.array(doc, "captured_ranks", "");
    for (std::size_t k = 0; k < ranks.size(); ++k) {
      r.captured_ranks.push_back(read_terms(f, ranks[k], model::index_path("captured_ranks", k)));
    }
  }
  return r;
}

void write_validation_results(const std::filesystem::path& path, const ValidationResults& results) {
  model::write_text_file_atomically(path, validation_to_json(results).dump(2) + "\n");
}

}  // namespace mheta::cli
