#include "interpose/variable_name.hpp"

namespace mheta::interpose {

// Each rank opens its own block file (io/ names them <dir>/<var>.<rank>.h5):
// the variable is the path with this rank's number, as a whole dot-, dash- or
// underscore-separated part of the file name, replaced by "{rank}".
std::string variable_name_from_path(const std::string& path, int rank) {
  const std::string number = std::to_string(rank);
  const std::size_t base = path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1;
  const auto separator = [](char c) { return c == '.' || c == '_' || c == '-'; };
  for (std::size_t at = path.find(number, base); at != std::string::npos; at = path.find(number, at + 1)) {
    const std::size_t end = at + number.size();
    const bool starts = at > base && separator(path[at - 1]);
    const bool ends = end == path.size() || separator(path[end]);
    if (starts && ends) return path.substr(0, at) + std::string(kRankPlaceholder) + path.substr(end);
  }
  return path;
}

}  // namespace mheta::interpose
