#pragma once
// Runs another program to completion with its standard output and error
// sent to files, as `mheta validate` runs `mheta run` for every distribution
// and keeps each run's output for reading and for the record.
#include <filesystem>
#include <string>
#include <vector>

namespace mheta::cli {

struct ChildStatus {
  bool exited = false;  // false: killed by a signal
  int code = 0;         // exit status, or the signal
  bool ok() const { return exited && code == 0; }
  std::string describe() const;  // "exit status 5", "signal 9"
};

// Runs `argv` (argv[0] looked up on the PATH) with stdout to `out` and
// stderr to `err` (both truncated) and stdin from /dev/null. Throws
// std::runtime_error when the program cannot be started.
ChildStatus run_child(const std::vector<std::string>& argv, const std::filesystem::path& out,
                      const std::filesystem::path& err);

// The path of the running executable (/proc/self/exe).
std::filesystem::path self_executable();

}  // namespace mheta::cli
