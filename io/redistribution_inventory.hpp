#pragma once
// What a data directory holds, read from its files rather than from the
// program that wrote them: the variables (rank 0's blocks <var>.0.h5), the
// shape of their rows and the distribution recorded in them. This is how
// `mheta redistribute` knows what to move without being told.
#include <filesystem>
#include <vector>

#include "io/local_array.hpp"
#include "model/gen_block.hpp"

namespace mheta::io {

struct StoredVariable {
  RowShape shape;
  model::GenBlock dist;  // the "distribution" attribute of its rank-0 block
};

// In name order. Throws LocalArrayError naming the file when a block is not
// an mheta local array, or the directory when it holds none.
std::vector<StoredVariable> stored_variables(const std::filesystem::path& dir);

}  // namespace mheta::io
