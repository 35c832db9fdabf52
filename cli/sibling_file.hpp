#pragma once
// Programs and libraries mheta starts are built beside it: in the same
// folder once installed (or ../lib for libraries), and in a sibling folder of
// a build tree (build/cli/mheta, build/microbench/mheta-microbench).
#include <filesystem>
#include <string_view>

namespace mheta::cli {

// The path of `name` beside the running mheta: `<mheta's folder>/<name>`,
// `<mheta's folder>/../<build_folder>/<name>` or `<mheta's folder>/../lib/<name>`,
// whichever exists first; empty when none does.
std::filesystem::path find_beside_mheta(std::string_view build_folder, std::string_view name);

}  // namespace mheta::cli
