#include "cli/sibling_file.hpp"

namespace mheta::cli {

std::filesystem::path find_beside_mheta(std::string_view build_folder, std::string_view name) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path dir = fs::read_symlink("/proc/self/exe", error).parent_path();
  if (error) return {};
  for (const fs::path& candidate : {dir / name, dir.parent_path() / build_folder / name,
                                    dir / MHETA_LIBDIR_FROM_BINDIR / name}) {
    if (fs::is_regular_file(candidate, error)) return fs::weakly_canonical(candidate);
  }
  return {};
}

std::string microbench_program() {
  const std::filesystem::path found = find_beside_mheta("microbench", "mheta-microbench");
  return found.empty() ? "mheta-microbench" : found.string();
}

}  // namespace mheta::cli
