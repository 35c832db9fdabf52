#include "model/accounting.hpp"

#include <algorithm>

#include "model/call_list.hpp"
#include "model/text_file.hpp"

namespace mheta::model {

double median_of(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

Json accounting_to_json(const Accounting& accounting) {
  Json ranks = Json::array();
  for (std::size_t r = 0; r < accounting.ranks.size(); ++r) {
    Json iterations = Json::array();
    for (const IterationTerms& t : accounting.ranks[r]) iterations.push_back(t.values());
    Json rank = {{"rank", r}, {"iterations", std::move(iterations)}};
    if (r < accounting.queued.size() && !accounting.queued[r].empty()) rank["queued"] = accounting.queued[r];
    if (skipped_iterations(accounting, r) > 0) rank["skipped"] = accounting.skipped[r];
    if (sampled_every(accounting, r) > 1) rank["every"] = accounting.every[r];
    ranks.push_back(std::move(rank));
  }
  Json doc = {{"format", kAccountingFormat},
              {"clock", accounting.clock},
              {"boundary", accounting.boundary},
              {"terms", kTermNames},
              {"ranks", std::move(ranks)}};
  if (!accounting.call.empty()) doc["call"] = accounting.call;
  return doc;
}

Accounting parse_accounting(std::string_view text, std::string_view source) {
  const JsonFields f{std::string(source)};
  const Json doc = parse_json_text(text, source);
  f.expect_format(doc, kAccountingFormat);
  Accounting a;
  a.clock = f.string(doc, "clock", "");
  if (a.clock != "wall" && a.clock != "virtual") f.fail("clock", "expected wall or virtual");
  a.boundary = f.string(doc, "boundary", "");
  if (a.boundary != "mark" && a.boundary != "pcontrol" && a.boundary != "call" && a.boundary != "none") {
    f.fail("boundary", "expected mark, pcontrol, call or none");
  }
  if (f.optional_member(doc, "call", "") != nullptr) {
    a.call = f.string(doc, "call", "");
    if (!is_call_list(a.call)) f.fail("call", "expected MPI_Name:k, or one per rank separated by commas");
  }
  const Json& ranks = f.array(doc, "ranks", "");
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const std::string at = index_path("ranks", r);
    if (!ranks[r].is_object()) f.fail(at, "expected an object");
    if (f.integer(ranks[r], "rank", at) != static_cast<std::int64_t>(r)) {
      f.fail(field_path(at, "rank"), "expected " + std::to_string(r) + ": ranks are listed in order");
    }
    const std::string iterations_at = field_path(at, "iterations");
    const Json& iterations = f.array(ranks[r], "iterations", at);
    std::vector<IterationTerms>& mine = a.ranks.emplace_back();
    for (std::size_t k = 0; k < iterations.size(); ++k) {
      const std::string it = index_path(iterations_at, k);
      if (!iterations[k].is_array() || iterations[k].size() != IterationTerms::kCount) {
        f.fail(it, "expected [compute, io, comm, wait, total] seconds");
      }
      std::array<double, IterationTerms::kCount> v{};
      for (std::size_t t = 0; t < v.size(); ++t) v[t] = f.non_negative_value(iterations[k][t], index_path(it, t));
      mine.push_back(IterationTerms::from(v));
    }
    std::vector<double>& queued = a.queued.emplace_back();
    if (const Json* q = f.optional_member(ranks[r], "queued", at)) {
      const std::string queued_at = field_path(at, "queued");
      if (!q->is_array() || q->size() != iterations.size()) {
        f.fail(queued_at, "expected one number per iteration (" + std::to_string(iterations.size()) + ")");
      }
      for (std::size_t k = 0; k < q->size(); ++k)
        queued.push_back(f.non_negative_value((*q)[k], index_path(queued_at, k)));
    }
    a.skipped.push_back(f.optional_member(ranks[r], "skipped", at) != nullptr ? f.integer(ranks[r], "skipped", at) : 0);
    a.every.push_back(f.optional_member(ranks[r], "every", at) != nullptr ? f.integer(ranks[r], "every", at) : 1);
    if (a.every.back() < 1) f.fail(field_path(at, "every"), "expected a positive number of iterations");
  }
  return a;
}

std::int64_t skipped_iterations(const Accounting& accounting, std::size_t r) {
  return r < accounting.skipped.size() ? accounting.skipped[r] : 0;
}

std::int64_t sampled_every(const Accounting& accounting, std::size_t r) {
  return r < accounting.every.size() && accounting.every[r] > 1 ? accounting.every[r] : 1;
}

std::int64_t recorded_iteration(std::int64_t skipped, std::int64_t every, std::size_t k) {
  if (k == 0) return skipped;
  return (skipped / every + static_cast<std::int64_t>(k)) * every;
}

std::int64_t last_recorded_iteration(const Accounting& accounting, std::size_t r) {
  const std::int64_t skipped = skipped_iterations(accounting, r);
  const std::size_t records = r < accounting.ranks.size() ? accounting.ranks[r].size() : 0;
  return records < 2 ? skipped : recorded_iteration(skipped, sampled_every(accounting, r), records - 1);
}

std::optional<std::size_t> record_of_iteration(const Accounting& accounting, std::size_t r, std::int64_t iteration) {
  if (r >= accounting.ranks.size()) return std::nullopt;
  const std::int64_t skipped = skipped_iterations(accounting, r);
  const std::int64_t every = sampled_every(accounting, r);
  std::int64_t k = 0;
  if (iteration != skipped) {
    if (iteration < skipped || iteration % every != 0) return std::nullopt;
    k = iteration / every - skipped / every;
  }
  if (k < 0 || k >= std::ssize(accounting.ranks[r])) return std::nullopt;
  return static_cast<std::size_t>(k);
}

Accounting read_accounting(const std::filesystem::path& path) {
  return parse_accounting(read_text_file(path), path.string());
}

void write_accounting(const std::filesystem::path& path, const Accounting& accounting) {
  write_text_file_atomically(path, accounting_to_json(accounting).dump() + "\n");
}

IterationTerms steady_terms(const std::vector<IterationTerms>& iterations) {
  if (iterations.empty()) return {};
  const std::size_t first = iterations.size() > 1 ? 1 : 0;
  std::array<double, IterationTerms::kCount> v{};
  std::vector<double> column;
  for (std::size_t t = 0; t < v.size(); ++t) {
    column.clear();
    for (std::size_t k = first; k < iterations.size(); ++k) column.push_back(iterations[k].values()[t]);
    v[t] = median_of(column);
  }
  return IterationTerms::from(v);
}

std::optional<double> queued_share(const Accounting& accounting) {
  std::optional<double> largest;
  if (accounting.clock != "wall") return largest;
  for (std::size_t r = 0; r < accounting.ranks.size() && r < accounting.queued.size(); ++r) {
    const std::vector<IterationTerms>& terms = accounting.ranks[r];
    const std::vector<double>& queued = accounting.queued[r];
    if (queued.size() != terms.size() || terms.size() < 2) continue;
    double waited = 0;
    double total = 0;
    for (std::size_t k = 1; k < terms.size(); ++k) {
      waited += queued[k];
      total += terms[k].total_s;
    }
    if (total > 0) largest = std::max(largest.value_or(0), waited / total);
  }
  return largest;
}

double accounted_iteration_seconds(const Accounting& accounting) {
  double slowest = 0;
  for (const std::vector<IterationTerms>& rank : accounting.ranks) {
    if (!rank.empty()) slowest = std::max(slowest, steady_terms(rank).total_s);
  }
  return slowest;
}

}  // namespace mheta::model
