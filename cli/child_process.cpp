#include "cli/child_process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>

extern char** environ;

namespace mheta::cli {

std::string ChildStatus::describe() const {
  return exited ? "exit status " + std::to_string(code) : "signal " + std::to_string(code);
}

namespace {

// posix_spawn's file actions, released however the spawn ends.
class FileActions {
 public:
  explicit FileActions(const ChildStreams& streams) {
    posix_spawn_file_actions_init(&actions_);
    if (streams.stdin_from_null) posix_spawn_file_actions_addopen(&actions_, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    for (const auto& [fd, path] : {std::pair{STDOUT_FILENO, &streams.out}, std::pair{STDERR_FILENO, &streams.err}}) {
      if (!path->empty()) {
        posix_spawn_file_actions_addopen(&actions_, fd, path->c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      }
    }
  }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  const posix_spawn_file_actions_t* get() const { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

}  // namespace

ChildStatus run_child(const std::vector<std::string>& argv, const ChildStreams& streams) {
  if (argv.empty()) throw CannotStart("no program to run");
  std::vector<std::string> args = argv;
  std::vector<char*> pointers;
  for (std::string& a : args) pointers.push_back(a.data());
  pointers.push_back(nullptr);
  // What mheta printed must come before what the child prints.
  std::cout.flush();
  std::cerr.flush();
  pid_t pid = 0;
  const FileActions actions(streams);
  if (const int error = posix_spawnp(&pid, pointers[0], actions.get(), nullptr, pointers.data(), environ); error != 0) {
    throw CannotStart("cannot run " + argv[0] + ": " + std::strerror(error));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("waiting for " + argv[0] + ": " + std::strerror(errno));
  }
  ChildStatus result;
  result.exited = WIFEXITED(status);
  result.code = result.exited ? WEXITSTATUS(status) : WTERMSIG(status);
  return result;
}

std::filesystem::path self_executable() {
  std::error_code error;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw std::runtime_error("cannot find the mheta executable (/proc/self/exe): " + error.message());
  return exe;
}

}  // namespace mheta::cli
