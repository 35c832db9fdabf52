#include "cli/app_iteration_times.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "model/format_error.hpp"
#include "model/json_fields.hpp"

namespace mheta::cli {

namespace {

bool valid_seconds(const model::Json& j) {
  return j.is_number() && std::isfinite(j.get<double>()) && j.get<double>() >= 0;
}

// {"mheta":"rank","rank":r,"iterations":[{"seconds":s,...},...]}: the rank's
// own time per iteration. A rank line without "iterations" says nothing of
// time and is skipped.
void read_rank_line(const model::Json& json, std::string_view source, const std::string& where,
                    std::vector<std::vector<double>>& rank_seconds) {
  const auto iterations = json.find("iterations");
  if (iterations == json.end()) return;
  const auto rank = json.find("rank");
  if (rank == json.end() || !rank->is_number_integer() || rank->get<std::int64_t>() < 0 ||
      rank->get<std::int64_t>() > 10000000 || !iterations->is_array()) {
    throw model::FormatError(std::string(source), where,
                             "a rank line needs a non-negative integer \"rank\" and an \"iterations\" array");
  }
  std::vector<double> seconds;
  for (const model::Json& it : *iterations) {
    const auto s = it.is_object() ? it.find("seconds") : it.end();
    if (!it.is_object() || s == it.end() || !valid_seconds(*s)) {
      throw model::FormatError(std::string(source), where, "every entry of \"iterations\" needs non-negative \"seconds\"");
    }
    seconds.push_back(s->get<double>());
  }
  const auto r = static_cast<std::size_t>(rank->get<std::int64_t>());
  if (r >= rank_seconds.size()) rank_seconds.resize(r + 1);
  rank_seconds[r] = std::move(seconds);
}

// The median of `seconds` after the first (the only one when alone).
double median_after_first(const std::vector<double>& seconds) {
  std::vector<double> steady(seconds.size() > 1 ? seconds.begin() + 1 : seconds.begin(), seconds.end());
  const std::size_t half = steady.size() / 2;
  std::nth_element(steady.begin(), steady.begin() + static_cast<std::ptrdiff_t>(half), steady.end());
  if (steady.size() % 2 == 1) return steady[half];
  const double upper = steady[half];
  return (upper + *std::max_element(steady.begin(), steady.begin() + static_cast<std::ptrdiff_t>(half))) / 2;
}

}  // namespace

AppIterationTimes parse_app_output(std::string_view text, std::string_view source) {
  AppIterationTimes times;
  std::vector<bool> seen;
  std::size_t line_number = 0;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.starts_with("{\"")) continue;
    const std::string where = "line " + std::to_string(line_number);
    const model::Json json = model::Json::parse(line, nullptr, false);
    if (json.is_discarded() || !json.is_object()) continue;  // a program's own braces, not ours
    const auto kind = json.find("mheta");
    if (kind == json.end() || !kind->is_string()) continue;
    if (*kind == "result") {
      const auto check = json.find("check");
      if (check != json.end() && check->is_string()) times.check = check->get<std::string>();
      continue;
    }
    if (*kind == "rank") {
      read_rank_line(json, source, where, times.rank_seconds);
      continue;
    }
    if (*kind != "iteration") continue;
    const auto index = json.find("index");
    const auto seconds = json.find("seconds");
    if (index == json.end() || !index->is_number_integer() || index->get<std::int64_t>() < 0 ||
        index->get<std::int64_t>() > 100000000) {
      throw model::FormatError(std::string(source), where, "an iteration line needs a non-negative integer \"index\"");
    }
    if (seconds == json.end() || !valid_seconds(*seconds)) {
      throw model::FormatError(std::string(source), where, "an iteration line needs non-negative \"seconds\"");
    }
    const auto k = static_cast<std::size_t>(index->get<std::int64_t>());
    if (k >= times.seconds.size()) {
      times.seconds.resize(k + 1, 0.0);
      seen.resize(k + 1, false);
    }
    if (seen[k]) throw model::FormatError(std::string(source), where, "iteration " + std::to_string(k) + " again");
    seen[k] = true;
    times.seconds[k] = seconds->get<double>();
  }
  for (std::size_t k = 0; k < seen.size(); ++k) {
    if (!seen[k]) {
      throw model::FormatError(std::string(source), "", "no line for iteration " + std::to_string(k));
    }
  }
  return times;
}

double steady_state_seconds(const AppIterationTimes& times, std::string_view source) {
  if (times.seconds.empty()) {
    throw model::FormatError(std::string(source), "",
                             "the program printed no {\"mheta\":\"iteration\",...} line (docs/apps.md)");
  }
  double slowest_rank = 0;
  bool every_rank_complete = !times.rank_seconds.empty();
  for (const std::vector<double>& rank : times.rank_seconds) {
    if (rank.size() != times.seconds.size()) {
      every_rank_complete = false;
      break;
    }
    slowest_rank = std::max(slowest_rank, median_after_first(rank));
  }
  return every_rank_complete ? slowest_rank : median_after_first(times.seconds);
}

}  // namespace mheta::cli
