#include "model/call_list.hpp"

namespace mheta::model {

bool is_call(std::string_view call) {
  if (!call.starts_with("MPI_")) return false;
  const std::size_t colon = call.find(':');
  if (colon == 4) return false;  // no name
  if (colon == std::string_view::npos) return true;
  const std::string_view every = call.substr(colon + 1);
  return !every.empty() && every.size() < 19 && every.find_first_not_of("0123456789") == std::string_view::npos &&
         every.find_first_not_of('0') != std::string_view::npos;
}

bool is_call_list(std::string_view list) {
  bool any = false;
  while (true) {
    const std::size_t comma = list.find(',');
    const std::string_view call = list.substr(0, comma);
    if (!call.empty()) {
      if (!is_call(call)) return false;
      any = true;
    }
    if (comma == std::string_view::npos) return any;
    list.remove_prefix(comma + 1);
  }
}

std::optional<std::string_view> call_of_rank(std::string_view list, int rank) {
  if (list.find(',') == std::string_view::npos) return list;
  for (int r = 0;; ++r) {
    const std::size_t comma = list.find(',');
    if (r == rank) return list.substr(0, comma);
    if (comma == std::string_view::npos) return std::nullopt;
    list.remove_prefix(comma + 1);
  }
}

}  // namespace mheta::model
