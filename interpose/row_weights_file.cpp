#include "interpose/row_weights_file.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "model/format_error.hpp"

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
                               "'" + value + "' is not a number (one weight per line, '#' starts a comment)");
    }
    if (errno == ERANGE || !std::isfinite(w) || w < 0) {
      throw model::FormatError(std::string(source), where, "weight " + value + " must be a finite number >= 0");
    }
    weights.push_back(w);
  }
  if (weights.empty()) throw model::FormatError(std::string(source), "", "no weights (one per global row expected)");
  return weights;
}

std::vector<double> read_row_weights_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw model::FormatError(path.string(), "", std::string("cannot read: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return parse_row_weights(text.str(), path.string());
}

}  // namespace mheta::interpose
