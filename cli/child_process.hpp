#pragma once
// The one way mheta starts another program (a launcher, or mheta itself):
// posix_spawnp, then wait for it to end.
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace mheta::cli {

struct ChildStatus {
  bool exited = false;  // false: killed by a signal
  int code = 0;         // exit status, or the signal
  bool ok() const { return exited && code == 0; }
  std::string describe() const;  // "exit status 5", "signal 9"
};

// Where the child's standard streams go; empty paths: mheta's own.
struct ChildStreams {
  std::filesystem::path out;  // truncated
  std::filesystem::path err;  // truncated
  bool stdin_from_null = false;
};

// The program could not be started at all (not found, not executable).
class CannotStart : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs `argv` (argv[0] looked up on the PATH) to completion in mheta's
// environment. Throws CannotStart when it cannot be started.
ChildStatus run_child(const std::vector<std::string>& argv, const ChildStreams& streams = {});

// The path of the running executable (/proc/self/exe).
std::filesystem::path self_executable();

}  // namespace mheta::cli
