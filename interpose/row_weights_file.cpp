#include "interpose/row_weights_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "model/format_error.hpp"
#include "model/json_fields.hpp"
#include "model/text_file.hpp"

namespace mheta::interpose {

namespace {

std::string_view trimmed(std::string_view line) {
  const std::size_t first = line.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const std::size_t last = line.find_last_not_of(" \t\r");
  return line.substr(first, last - first + 1);
}

}  // namespace

std::vector<double> parse_row_weights(std::string_view text, std::string_view source) {
  std::vector<double> weights;
  std::size_t line_number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++line_number;
    const std::string_view line = trimmed(text.substr(start, end - start));
    start = end + 1;
    if (line.empty() || line.front() == '#') continue;
    const std::string value(line);
    char* stop = nullptr;
    errno = 0;
    const double w = std::strtod(value.c_str(), &stop);
    const std::string where = "line " + std::to_string(line_number);
    if (stop == value.c_str() || *stop != '\0') {
      throw model::FormatError(std::string(source), where,
                               "'" + model::excerpt(value) + "' is not a number (one weight per line, '#' starts a comment)");
    }
    if (errno == ERANGE || !std::isfinite(w) || w < 0 || w > model::kMaxInputReal) {
      throw model::FormatError(std::string(source), where,
                               "weight " + model::excerpt(value) + " must be a number in [0, 1e12]");
    }
    weights.push_back(w);
  }
  if (weights.empty()) throw model::FormatError(std::string(source), "", "no weights (one per global row expected)");
  return weights;
}

std::vector<double> read_row_weights_file(const std::filesystem::path& path) {
  return parse_row_weights(model::read_text_file(path), path.string());
}

}  // namespace mheta::interpose
