#pragma once
// An app's local arrays, opened together and swept as one IclaGroup, and,
// with --auto, moved on the fly by the runtime (advisor/auto_redistribute.hpp).
// What every app does around its arrays lives here; what depends on the
// app's rows (its first row, neighbours, in-memory vectors) the app rebuilds
// in the callback it gives after_iteration().
#include <functional>
#include <optional>
#include <vector>

#include "apps/app_main.hpp"
#include "io/icla_group.hpp"
#include "io/open_arrays.hpp"

namespace mheta::apps {

class AppArrays {
 public:
  // With --auto, first brings the data directory to ctx.dist (repairing an
  // interrupted redistribution; a directory an earlier --auto run moved is
  // moved back, so every run starts on the distribution it was given) and
  // starts ctx.runtime. Then opens the arrays, or creates them, and
  // describes them in the report. Collective over ctx.comm.
  AppArrays(AppContext& ctx, std::vector<io::RowShape> shapes);
  AppArrays(const AppArrays&) = delete;
  AppArrays& operator=(const AppArrays&) = delete;

  io::IclaArray& operator[](std::size_t i) { return (*group_)[i]; }
  io::IclaGroup& group() { return *group_; }
  io::LocalArray& local_array(std::size_t i) { return opened_.arrays[i]; }
  // New files: the caller generates their rows, flushes them, then calls
  // publish_generated().
  bool created() const { return opened_.created; }
  // Moves the generated blocks where later runs look for them (collective):
  // a generation cut short is never reused (io/open_arrays.hpp).
  void publish_generated();

  // The old distribution, handed to the app after a move.
  using Rebuild = std::function<void(const model::GenBlock& old_dist)>;

  // Call after ctx.report->end_iteration() of iteration `completed`
  // (1-based). With --auto, at the iteration the runtime decides (the
  // captured one): writes back the arrays' changed rows, asks the runtime,
  // and when it moved the data closes the arrays, sets ctx.dist to the new
  // distribution, reopens them, describes them again and calls
  // rebuild(old_dist). Collective. Returns whether the rows moved.
  bool after_iteration(int completed, const Rebuild& rebuild);

 private:
  void open();

  AppContext& ctx_;
  std::vector<io::RowShape> shapes_;
  io::OpenedArrays opened_;
  std::optional<io::IclaGroup> group_;
};

}  // namespace mheta::apps
