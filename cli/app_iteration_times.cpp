#include "cli/app_iteration_times.hpp"

#include <cmath>
#include <numeric>

#include "model/format_error.hpp"
#include "model/json_fields.hpp"

namespace mheta::cli {

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
    if (*kind != "iteration") continue;
    const auto index = json.find("index");
    const auto seconds = json.find("seconds");
    if (index == json.end() || !index->is_number_integer() || index->get<std::int64_t>() < 0 ||
        index->get<std::int64_t>() > 100000000) {
      throw model::FormatError(std::string(source), where, "an iteration line needs a non-negative integer \"index\"");
    }
    if (seconds == json.end() || !seconds->is_number() || !std::isfinite(seconds->get<double>()) ||
        seconds->get<double>() < 0) {
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
  const auto first = times.seconds.size() > 1 ? times.seconds.begin() + 1 : times.seconds.begin();
  return std::accumulate(first, times.seconds.end(), 0.0) / static_cast<double>(times.seconds.end() - first);
}

}  // namespace mheta::cli
