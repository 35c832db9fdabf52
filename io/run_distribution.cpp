#include "io/run_distribution.hpp"

namespace mheta::io {

model::GenBlock run_distribution(const std::filesystem::path& dist_file, int ranks, std::int64_t global_rows) {
  if (dist_file.empty()) return model::block_distribution(global_rows, ranks);
  model::GenBlock dist = model::read_gen_block(dist_file);
  model::check_gen_block(dist, ranks, global_rows, dist_file.string());
  return dist;
}

}  // namespace mheta::io
