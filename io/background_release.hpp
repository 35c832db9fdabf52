#pragma once
// Freeing a large file's blocks can take longer than writing them (on ext4
// mounted with `discard`, every freed extent is trimmed). The old blocks a
// redistribution replaces are released in the background: each is held
// open while the new block is renamed over it, so the rename only drops its
// name, and a thread then closes them and the kernel frees their space.
// What is on disk is the same either way: the name points at the new block
// from the rename on, and an old block nobody can open is gone at the next
// mount whatever happens to the process.
#include <filesystem>
#include <functional>
#include <vector>

namespace mheta::io {

class BackgroundRelease {
 public:
  // Holds `path` open (nothing happens if it does not exist).
  void hold(const std::filesystem::path& path);
  // Closes what is held in a background thread, after running `first`
  // there (if given; it must not throw); waits first for the thread
  // started before, so at most one runs.
  void release(std::function<void()> first = {});
  ~BackgroundRelease();  // releases what is still held

 private:
  std::vector<int> fds_;
};

// Waits until the background work started so far is done and the space of
// the blocks released is free again (a redistribution calls it first, so
// its free-space check sees that space; recovery too, so it never reads a
// manifest the background is about to replace).
void wait_for_background_release();

}  // namespace mheta::io
