#include "cli/interposer_environment.hpp"

#include <cstdlib>
#include <mheta/environment.hpp>
#include <stdexcept>

#include "cli/sibling_file.hpp"
#include "interpose/emulation_config.hpp"

namespace mheta::cli {

namespace fs = std::filesystem;

namespace {

const char* set_value(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

}  // namespace

fs::path interpose_library() {
  if (const char* lib = set_value(env::kInterposeLib)) {
    if (!fs::is_regular_file(lib)) {
      throw std::runtime_error(std::string("MHETA_INTERPOSE_LIB=") + lib + " is not a file");
    }
    return fs::absolute(lib);
  }
  const fs::path found = find_beside_mheta("interpose", MHETA_INTERPOSE_LIB_NAME);
  if (!found.empty()) return found;
  throw std::runtime_error(std::string("cannot find ") + MHETA_INTERPOSE_LIB_NAME + " beside the mheta executable" +
                           "; set MHETA_INTERPOSE_LIB to its path");
}

void add_interposer(LaunchEnvironment& environment, const std::string& emulate, const std::string& clock) {
  std::string preload = interpose_library().string();
  if (const char* existing = set_value("LD_PRELOAD")) preload += std::string(":") + existing;
  environment.emplace_back("LD_PRELOAD", preload);
  if (!emulate.empty()) {
    environment.emplace_back(env::kEmulate,
                             interpose::emulation_preset(emulate) ? emulate : fs::absolute(emulate).string());
  }
  if (!clock.empty()) environment.emplace_back(env::kClock, clock);
}

void add_thread_wait_policy(LaunchEnvironment& environment, bool sleeping) {
  if (sleeping && set_value("OMP_WAIT_POLICY") == nullptr) environment.emplace_back("OMP_WAIT_POLICY", "passive");
}

}  // namespace mheta::cli
