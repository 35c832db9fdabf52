// The price of moving the data from δ to δ' (io/'s redistribution): the
// runtime redistributes only when the predicted gain over the remaining
// iterations exceeds it. The whole of io/redistribution.cpp's work is
// priced here: reads of the old blocks, messages of the rows that change
// owner, writes of the new blocks, the reads of the old blocks and the
// read-back that verifies the new ones (through mappings, every row
// hashed: the cluster's mapped_hash_s_per_byte where it measured it), and
// a fixed cost of creating, syncing and committing.
#include <algorithm>

#include "model/model.hpp"
#include "model/redistribution_plan.hpp"

namespace mheta::model {

namespace {

// Creating the new files, the communicator, the fsync of the staging
// directory and the committed manifest, the switch's renames: the fixed
// part of a redistribution, independent of the bytes. 0.03 s: the
// redistribution throughput benchmark
// (tests/redistribute/redistribution_throughput.cpp) moving 1 MiB, where
// the bytes cost next to nothing, took 0.012-0.036 s in all on 2 and 4
// ranks of this machine's ext4 disk under load (docs/results.md,
// "Redistribution"); the journal commits of its fsyncs dominate, which no
// microbenchmark of the cluster measures. It was 0.25 s while the commit
// made four fsyncs on the critical path and the completion a fifth.
constexpr double kCommitSeconds = 0.03;

}  // namespace

double Model::redistribution_seconds(std::span<const std::int64_t> from, std::span<const std::int64_t> to) const {
  const GenBlock old_dist{{from.begin(), from.end()}};
  const GenBlock new_dist{{to.begin(), to.end()}};
  const std::vector<RowTransfer> transfers = plan_transfers(old_dist, new_dist);
  // Per rank: pieces it reads (each transfer out, plus the rows it keeps)
  // and writes (each transfer in, plus the rows it keeps), and its messages.
  std::vector<double> seconds(static_cast<std::size_t>(ranks_), 0.0);
  std::vector<int> reads(static_cast<std::size_t>(ranks_), 0);
  std::vector<int> writes(static_cast<std::size_t>(ranks_), 0);
  std::int64_t bytes_per_row = 0;
  // Only the out-of-core arrays move: a program's own files stay as they are.
  for (int m = 0; m < variables_; ++m) {
    if (program_file_[static_cast<std::size_t>(m)] == 0) bytes_per_row += variable_bytes_per_row_[static_cast<std::size_t>(m)];
  }
  std::vector<std::int64_t> moved_out(static_cast<std::size_t>(ranks_), 0);
  for (const RowTransfer& t : transfers) {
    const double bytes = static_cast<double>(t.rows * bytes_per_row);
    seconds[static_cast<std::size_t>(t.from)] +=
        network_.send_overhead_s + network_.link(t.from, t.to).seconds(bytes);
    seconds[static_cast<std::size_t>(t.to)] += network_.recv_overhead_s;
    ++reads[static_cast<std::size_t>(t.from)];
    ++writes[static_cast<std::size_t>(t.to)];
    moved_out[static_cast<std::size_t>(t.from)] += t.rows;
  }
  double slowest = 0;
  for (int r = 0; r < ranks_; ++r) {
    const auto ri = static_cast<std::size_t>(r);
    const bool keeps = from[ri] - moved_out[ri] > 0;
    const DiskCosts& disk = nodes_[ri].disk;
    for (int m = 0; m < variables_; ++m) {
      if (program_file_[static_cast<std::size_t>(m)] != 0) continue;
      const RankVariable& v = rank_variables_[ri * static_cast<std::size_t>(variables_) + static_cast<std::size_t>(m)];
      const double row_bytes = static_cast<double>(variable_bytes_per_row_[static_cast<std::size_t>(m)]);
      // The new local arrays are written beside the old ones, so the rows a
      // rank keeps are read and written too.
      seconds[ri] += (writes[ri] + keeps) * disk.write_overhead_s + v.write_s_per_byte * row_bytes * static_cast<double>(to[ri]);
      if (disk.mapped_hash_s_per_byte > 0) {
        // The old block is read, and the new one read back, through their
        // mappings, every row hashed: the cluster measured that whole.
        seconds[ri] += disk.mapped_hash_s_per_byte * row_bytes * static_cast<double>(from[ri] + to[ri]);
        continue;
      }
      // Without it, the captured iteration's reads: the old block, then the
      // new one read back once to verify its rows' checksums.
      seconds[ri] += (reads[ri] + keeps) * disk.read_overhead_s + v.read_s_per_byte * row_bytes * static_cast<double>(from[ri]);
      seconds[ri] += disk.read_overhead_s + v.read_s_per_byte * row_bytes * static_cast<double>(to[ri]);
    }
    slowest = std::max(slowest, seconds[ri]);
  }
  return slowest + kCommitSeconds;
}

}  // namespace mheta::model
