#pragma once
// GEN_BLOCK distributions (HPF's variable-sized 1-D blocks) and dist.txt.
//
// dist.txt holds the rows of each rank in rank order: non-negative integers
// separated by white space or newlines; '#' starts a comment that runs to the
// end of the line. A rank may own zero rows.
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mheta::model {

struct GenBlock {
  std::vector<std::int64_t> rows;  // rows owned by each rank, in rank order

  int ranks() const { return static_cast<int>(rows.size()); }
  std::int64_t total_rows() const;
  // First global row owned by `rank` (the sum of the rows of lower ranks).
  std::int64_t first_row(int rank) const;
  bool operator==(const GenBlock&) const = default;
};

// Parses dist.txt text. `source` names the file in error messages. Throws
// FormatError with line and column for a non-integer, a negative number, a
// number too large for 64 bits, or a file with no numbers at all.
GenBlock parse_gen_block(std::string_view text, std::string_view source);
GenBlock read_gen_block(const std::filesystem::path& path);

// Throws FormatError naming `source` when the distribution does not have
// `ranks` entries or its rows do not add up to `global_rows`.
void check_gen_block(const GenBlock& dist, int ranks, std::int64_t global_rows,
                     std::string_view source);

// One rank per line, with a comment header giving ranks and total rows.
std::string format_gen_block(const GenBlock& dist);
// On one line, for messages: "[512 512 1024]".
std::string rows_in_brackets(const GenBlock& dist);
void write_gen_block(const std::filesystem::path& path, const GenBlock& dist);

// Blk: equal blocks; the first (rows mod ranks) ranks get one row more.
GenBlock block_distribution(std::int64_t global_rows, int ranks);

// The nearest rank beyond `rank` in `direction` (+1 or -1) that owns rows,
// or -1 when there is none. Neighbour exchanges skip ranks that own nothing.
int next_rank_with_rows(std::span<const std::int64_t> rows, int rank, int direction);

}  // namespace mheta::model
