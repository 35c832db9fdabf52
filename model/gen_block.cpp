#include "model/gen_block.hpp"

#include <cctype>
#include <limits>
#include <numeric>

#include "model/format_error.hpp"
#include "model/output_file.hpp"
#include "model/text_file.hpp"

namespace mheta::model {

std::int64_t GenBlock::total_rows() const {
  return std::accumulate(rows.begin(), rows.end(), std::int64_t{0});
}

std::int64_t GenBlock::first_row(int rank) const {
  return std::accumulate(rows.begin(), rows.begin() + rank, std::int64_t{0});
}

namespace {

std::string position(int line, int column) {
  return std::to_string(line) + ":" + std::to_string(column);
}

}  // namespace

GenBlock parse_gen_block(std::string_view text, std::string_view source) {
  GenBlock dist;
  int line = 1;
  int column = 1;
  std::size_t i = 0;
  auto advance = [&] {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    ++i;
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') advance();
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      advance();
      continue;
    }
    const std::string where = position(line, column);
    std::size_t end = i;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])) &&
           text[end] != '#') {
      ++end;
    }
    const std::string_view token = text.substr(i, end - i);
    const std::string rank_name = "rank " + std::to_string(dist.rows.size());
    if (token.front() == '-') {
      throw FormatError(std::string(source), where,
                        rank_name + ": rows must be non-negative, got '" + excerpt(token) + "'");
    }
    std::int64_t value = 0;
    for (char digit : token) {
      if (!std::isdigit(static_cast<unsigned char>(digit))) {
        throw FormatError(std::string(source), where,
                          rank_name + ": expected a whole number of rows, got '" + excerpt(token) + "'");
      }
      const int d = digit - '0';
      if (value > (std::numeric_limits<std::int64_t>::max() - d) / 10) {
        throw FormatError(std::string(source), where,
                          rank_name + ": row count '" + excerpt(token) + "' is too large (overflows 64 bits)");
      }
      value = value * 10 + d;
    }
    dist.rows.push_back(value);
    while (i < end) advance();
  }
  if (dist.rows.empty()) {
    throw FormatError(std::string(source), position(line, column),
                      "no row counts found (expected one non-negative integer per rank)");
  }
  // The sum must fit too, or every later computation is wrong.
  std::int64_t sum = 0;
  for (std::size_t rank = 0; rank < dist.rows.size(); ++rank) {
    if (dist.rows[rank] > std::numeric_limits<std::int64_t>::max() - sum) {
      throw FormatError(std::string(source), "",
                        "the row counts add up to more than 64 bits can hold (at rank " +
                            std::to_string(rank) + ")");
    }
    sum += dist.rows[rank];
  }
  return dist;
}

GenBlock read_gen_block(const std::filesystem::path& path) {
  return parse_gen_block(read_text_file(path), path.string());
}

void check_gen_block(const GenBlock& dist, int ranks, std::int64_t global_rows,
                     std::string_view source) {
  if (dist.ranks() != ranks) {
    throw FormatError(std::string(source), "",
                      "has " + std::to_string(dist.ranks()) + " row counts but the program runs on " +
                          std::to_string(ranks) + " ranks");
  }
  if (dist.total_rows() != global_rows) {
    throw FormatError(std::string(source), "",
                      "rows add up to " + std::to_string(dist.total_rows()) + " but the program has " +
                          std::to_string(global_rows) + " rows");
  }
}

std::string format_gen_block(const GenBlock& dist) {
  std::string text = "# GEN_BLOCK: " + std::to_string(dist.ranks()) + " ranks, " +
                     std::to_string(dist.total_rows()) + " rows; one rank per line\n";
  for (std::int64_t rows : dist.rows) text += std::to_string(rows) + "\n";
  return text;
}

std::string rows_in_brackets(const GenBlock& dist) {
  // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive)
  // on `"" + std::to_string(r)` at -O3.
  std::string text = "[";
  for (std::size_t i = 0; i < dist.rows.size(); ++i) {
    if (i > 0) text += ' ';
    text += std::to_string(dist.rows[i]);
  }
  text += ']';
  return text;
}

void write_gen_block(const std::filesystem::path& path, const GenBlock& dist) {
  write_output(path, format_gen_block(dist));
}

GenBlock block_distribution(std::int64_t global_rows, int ranks) {
  GenBlock dist;
  dist.rows.assign(static_cast<std::size_t>(ranks), global_rows / ranks);
  for (std::int64_t r = 0; r < global_rows % ranks; ++r) ++dist.rows[static_cast<std::size_t>(r)];
  return dist;
}

int next_rank_with_rows(std::span<const std::int64_t> rows, int rank, int direction) {
  for (int r = rank + direction; r >= 0 && r < static_cast<int>(rows.size()); r += direction) {
    if (rows[static_cast<std::size_t>(r)] > 0) return r;
  }
  return -1;
}

}  // namespace mheta::model
