#pragma once
// The row weights file (MHETA_ROW_WEIGHTS, `mheta run --row-weights`): the
// relative work of each global row, which the model uses instead of row
// counts to scale compute (docs/model.md, T_Φ' = T_Φ · W'/W). cg writes its
// matrix's nonzeros per row in this format (<data>/a.row_weights.txt).
//
// One weight per line, in global row order: a finite number >= 0. Blank
// lines and lines starting with '#' are skipped. No MPI: `mheta run` checks
// the file before starting the program, the interposer reads it on rank 0.
#include <filesystem>
#include <string_view>
#include <vector>

namespace mheta::interpose {

// Throws model::FormatError naming the file, the line and the problem
// (an unreadable file included).
std::vector<double> read_row_weights_file(const std::filesystem::path& path);
std::vector<double> parse_row_weights(std::string_view text, std::string_view source);

}  // namespace mheta::interpose
