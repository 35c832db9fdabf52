#include "io/background_release.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <mutex>
#include <thread>

namespace mheta::io {

namespace {

// The one background thread, joined before the next starts and when the
// process ends (a joinable std::thread must never be destroyed).
struct Releaser {
  std::mutex mutex;
  std::thread thread;
  void wait() {
    std::lock_guard<std::mutex> lock(mutex);
    if (thread.joinable()) thread.join();
  }
  void start(std::function<void()> first, std::vector<int> fds) {
    std::lock_guard<std::mutex> lock(mutex);
    if (thread.joinable()) thread.join();
    thread = std::thread([first = std::move(first), fds = std::move(fds)] {
      if (first) first();
      for (int fd : fds) ::close(fd);
    });
  }
  ~Releaser() {
    if (thread.joinable()) thread.join();
  }
};

Releaser& releaser() {
  static Releaser r;
  return r;
}

}  // namespace

void BackgroundRelease::hold(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) fds_.push_back(fd);
}

void BackgroundRelease::release(std::function<void()> first) {
  if (fds_.empty() && !first) return;
  releaser().start(std::move(first), std::move(fds_));
  fds_.clear();
}

BackgroundRelease::~BackgroundRelease() {
  try {
    release();
  } catch (...) {
    // No thread to be had: close them here.
    for (int fd : fds_) ::close(fd);
  }
}

void wait_for_background_release() { releaser().wait(); }

}  // namespace mheta::io
