#pragma once
// Programs and libraries mheta starts are found beside it: in its own
// folder or the install's library folder (<prefix>/bin/mheta ->
// <prefix>/lib/libmheta-interpose.so), or in a sibling folder of a build tree
// (build/cli/mheta -> build/microbench/mheta-microbench).
#include <filesystem>
#include <string>
#include <string_view>

namespace mheta::cli {

// The path of `name` beside the running mheta: `<mheta's folder>/<name>`,
// `<mheta's folder>/../<build_folder>/<name>` or the installed library
// folder relative to mheta's, whichever exists first; empty when none does.
std::filesystem::path find_beside_mheta(std::string_view build_folder, std::string_view name);

// mheta-microbench beside mheta, else the bare name (looked up on the PATH).
std::string microbench_program();

}  // namespace mheta::cli
