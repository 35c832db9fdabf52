#pragma once
// Runs a shell command and captures its exit code, stdout and stderr, for
// tests that drive the `mheta` executable the way a user does.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace mheta::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline CommandResult run_command(const std::string& command) {
  static int counter = 0;
  const auto base = std::filesystem::temp_directory_path() /
                    ("mheta-cli-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  const std::string out = base.string() + ".out";
  const std::string err = base.string() + ".err";
  const int status = std::system((command + " >" + out + " 2>" + err + " </dev/null").c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = slurp(out);
  result.err = slurp(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return result;
}

}  // namespace mheta::testing
