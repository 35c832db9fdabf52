#pragma once
// Redistribution on the fly: a program that keeps its distributed arrays in
// io/'s local arrays calls after_iteration() at the end of every iteration
// (after its mheta_mark_iteration()). At the iteration the interposer
// captured (mheta_capture_iteration() of <mheta/interposer.h>; it writes
// profile.json at that iteration's mark and says where with
// mheta_profile_written()), rank 0 reads the profile, loads
// cluster.json ($MHETA_CLUSTER) or runs a quick characterization, predicts
// the current distribution, searches the best one (GBS), and decides:
//   gain = (T(δ) − T(δ')) × remaining iterations
//   move when gain > redistribution cost × (1 + margin)
// (the cost: Model::redistribution_seconds, the whole price of the move).
// It prints the decision with its figures, every rank learns it, and when
// it pays the local arrays are redistributed (io/redistribution.hpp) and
// the program reopens them under dist(). The advisor floor: it alone
// joins io/, model/, search/ and microbench/ (docs/architecture.md).
// Without the interposer there is no profile: it says so once and the
// program continues on its distribution.
#include <mpi.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "io/local_array.hpp"
#include "io/redistribution.hpp"
#include "model/gen_block.hpp"

namespace mheta::advisor {

struct AutoOptions {
  std::filesystem::path cluster;  // empty: $MHETA_CLUSTER, else a quick characterization
  double margin = 0.25;           // safety margin on the predicted cost of moving
  double characterization_s = 4;  // budget of the quick characterization
  io::RedistributionOptions redistribution;
};

struct AutoDecision {
  bool redistribute = false;
  model::GenBlock from;
  model::GenBlock to;    // the best distribution found (== from when none is better)
  double current_s = 0;  // predicted seconds per iteration on `from`
  double best_s = 0;     // ... on `to`
  int remaining = 0;     // iterations left after this one
  double gain_s = 0;     // (current_s − best_s) × remaining
  double cost_s = 0;     // predicted seconds of the move
  double moved_s = 0;    // measured seconds of the move (0 when none)
  std::string summary;   // the line rank 0 printed
};

class AutoRedistributor {
 public:
  AutoRedistributor(MPI_Comm comm, std::filesystem::path data_dir, std::vector<io::RowShape> variables,
                    model::GenBlock dist, int total_iterations, AutoOptions options = {});

  // Collective. `completed`: iterations finished so far (1-based count).
  // Returns the decision at the captured iteration, nothing otherwise.
  // When decision->redistribute, the local arrays are now in dist(): the
  // program must close its old handles (before calling this) and reopen.
  std::optional<AutoDecision> after_iteration(int completed);

  // Whether after_iteration(completed) takes the decision (the program
  // writes its arrays back and closes them first only then).
  bool decides_after(int completed) const { return !decided_ && completed >= capture_iteration_; }

  const model::GenBlock& dist() const { return dist_; }
  bool decided() const { return decided_; }

 private:
  MPI_Comm comm_;
  int rank_ = 0;
  std::filesystem::path data_dir_;
  std::vector<io::RowShape> variables_;
  model::GenBlock dist_;
  int total_iterations_;
  AutoOptions options_;
  int capture_iteration_;
  bool decided_ = false;
};

}  // namespace mheta::advisor
