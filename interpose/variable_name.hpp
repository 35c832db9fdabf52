#pragma once
// The name of a variable opened without the mheta_variable hint: its path.
#include <string>
#include <string_view>

namespace mheta::interpose {

// Each rank opens its own block file, so the rank's number in the file name
// (a whole part between '.', '_' or '-') becomes "{rank}": every rank then
// names the same variable the same way.
std::string variable_name_from_path(const std::string& path, int rank);

// What stands for the rank's number in such a name.
inline constexpr std::string_view kRankPlaceholder = "{rank}";

}  // namespace mheta::interpose
