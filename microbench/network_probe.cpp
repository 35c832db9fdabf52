#include "microbench/network_probe.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "microbench/quiet_wait.hpp"
#include "microbench/timing_batch.hpp"

namespace mheta::microbench {

namespace {

constexpr int kTag = 7001;
constexpr int kSmall = 8;  // bytes of the overhead messages (eager protocol)
// Doubles of the message whose blocks are timed: one block each, every
// other double of a buffer twice that size (16 KiB of data, a column halo's
// shape), against the same doubles in one block.
constexpr int kBlocks = 2048;

class PairMeasurer {
 public:
  PairMeasurer(MPI_Comm comm, const std::vector<std::int64_t>& sizes)
      : comm_(comm),
        sizes_(sizes),
        buffer_(std::max<std::size_t>(static_cast<std::size_t>(sizes.back()), 2 * kBlocks * sizeof(double))) {
    MPI_Type_vector(kBlocks, 1, 2, MPI_DOUBLE, &strided_);
    MPI_Type_commit(&strided_);
  }
  ~PairMeasurer() { MPI_Type_free(&strided_); }
  PairMeasurer(const PairMeasurer&) = delete;
  PairMeasurer& operator=(const PairMeasurer&) = delete;

  // What a message's blocks cost beyond its bytes, per block, one way: the
  // round trip of kBlocks doubles as a vector of single doubles (packed and
  // unpacked by MPI at both ends, as a column halo is) less the round trip
  // of the same doubles in one block, over the blocks beyond the first.
  // The lower rank adds one value a batch.
  void measure_segments(int me, int peer, Sample& segment) {
    const bool lead = me < peer;
    bounce_typed(lead, peer, 1, strided_);  // warm the datatype's path
    const auto one_way = [&](int count, MPI_Datatype type) {
      return time_batch([&] {
        const double t0 = MPI_Wtime();
        bounce_typed(lead, peer, count, type);
        return (MPI_Wtime() - t0) / 2;
      });
    };
    const std::array<double, kBatch> strided = one_way(1, strided_);
    const std::array<double, kBatch> contiguous = one_way(kBlocks, MPI_DOUBLE);
    if (!lead) return;
    for (std::size_t k = 0; k < kBatch; ++k) segment.add((strided[k] - contiguous[k]) / (kBlocks - 1));
  }

  // The lower rank times the round trips and the sends; the higher rank
  // times the receives.
  void measure(int me, int peer, std::vector<Sample>& one_way, Sample& send_overhead, Sample& recv_overhead) {
    const bool lead = me < peer;
    for (std::size_t i = 0; i < sizes_.size(); ++i) {
      const int bytes = static_cast<int>(sizes_[i]);
      bounce(lead, peer, bytes);  // warm the path (rendezvous buffers, caches)
      const auto one_way_s = time_batch([&] {
        const double t0 = MPI_Wtime();
        bounce(lead, peer, bytes);
        return (MPI_Wtime() - t0) / 2;
      });
      if (lead) add_all(one_way[i], one_way_s);
    }
    if (lead) {
      add_all(send_overhead, time_batch([&] {
                const double t0 = MPI_Wtime();
                MPI_Send(buffer_.data(), kSmall, MPI_BYTE, peer, kTag, comm_);
                return MPI_Wtime() - t0;
              }));
      for (std::size_t k = 0; k < kBatch; ++k) MPI_Send(buffer_.data(), kSmall, MPI_BYTE, peer, kTag, comm_);
    } else {
      for (std::size_t k = 0; k < kBatch; ++k) {
        MPI_Recv(buffer_.data(), kSmall, MPI_BYTE, peer, kTag, comm_, MPI_STATUS_IGNORE);
      }
      add_all(recv_overhead, time_batch([&] {
                // Wait until the message is there, then time only its reception.
                MPI_Probe(peer, kTag, comm_, MPI_STATUS_IGNORE);
                const double t0 = MPI_Wtime();
                MPI_Recv(buffer_.data(), kSmall, MPI_BYTE, peer, kTag, comm_, MPI_STATUS_IGNORE);
                return MPI_Wtime() - t0;
              }));
    }
  }

 private:
  void bounce(bool lead, int peer, int bytes) { bounce_typed(lead, peer, bytes, MPI_BYTE); }

  void bounce_typed(bool lead, int peer, int count, MPI_Datatype type) {
    if (lead) {
      MPI_Send(buffer_.data(), count, type, peer, kTag, comm_);
      MPI_Recv(buffer_.data(), count, type, peer, kTag, comm_, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buffer_.data(), count, type, peer, kTag, comm_, MPI_STATUS_IGNORE);
      MPI_Send(buffer_.data(), count, type, peer, kTag, comm_);
    }
  }

  MPI_Comm comm_;
  const std::vector<std::int64_t>& sizes_;
  std::vector<char> buffer_;
  MPI_Datatype strided_ = MPI_DATATYPE_NULL;
};

Sample merge_on_root(const Sample& mine, int rank, int size, MPI_Comm comm) {
  int count = static_cast<int>(mine.count());
  std::vector<int> counts(static_cast<std::size_t>(size));
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
  std::vector<int> displs(static_cast<std::size_t>(size), 0);
  for (int r = 1; rank == 0 && r < size; ++r) {
    displs[static_cast<std::size_t>(r)] =
        displs[static_cast<std::size_t>(r) - 1] + counts[static_cast<std::size_t>(r) - 1];
  }
  std::vector<double> all(rank == 0 ? static_cast<std::size_t>(displs.back() + counts.back()) : 0);
  MPI_Gatherv(mine.values().data(), count, MPI_DOUBLE, all.data(), counts.data(), displs.data(), MPI_DOUBLE, 0, comm);
  Sample merged;
  for (const double x : all) merged.add(x);
  return merged;
}

}  // namespace

std::vector<std::int64_t> message_sizes(const Options& options) {
  std::vector<std::int64_t> sizes;
  for (std::int64_t s = kSmall; s <= options.max_message_bytes; s *= 4) sizes.push_back(s);
  return sizes;
}

NetworkResult probe_network(const Options& options, Budget& budget, MPI_Comm comm) {
  int rank = 0;
  int size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  NetworkResult result;
  result.sizes = message_sizes(options);
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < size; ++i) {
    for (int j = i + 1; j < size; ++j) pairs.emplace_back(i, j);
  }
  const std::size_t count = pairs.size();
  // Samples of the pairs this rank leads (index by pair; empty otherwise).
  std::vector<std::vector<Sample>> one_way(count, std::vector<Sample>(result.sizes.size()));
  Sample send_overhead;
  Sample recv_overhead;
  Sample segment;
  PairMeasurer measurer(comm, result.sizes);
  // need[p]: pair p wants more samples; need[count]: rank 0 ran out of time.
  std::vector<int> need(count + 1, 1);
  std::vector<int> local(count + 1, 0);
  for (int round = 1;; ++round) {
    for (std::size_t p = 0; p < count; ++p) {
      if (need[p] == 0) continue;
      const auto [i, j] = pairs[p];
      if (rank == i || rank == j) {
        measurer.measure(rank, rank == i ? j : i, one_way[p], send_overhead, recv_overhead);
        measurer.measure_segments(rank, rank == i ? j : i, segment);
      }
      quiet_barrier(comm);
    }
    result.rounds = round;
    for (std::size_t p = 0; p < count; ++p) {
      local[p] = rank == pairs[p].first &&
                 !fit_linear_cost(result.sizes, one_way[p]).precise_enough(result.sizes, options.target_relative_ci95);
    }
    local[count] = rank == 0 && budget.phase_time_up();
    quiet_allreduce(local.data(), need.data(), static_cast<int>(count + 1), MPI_INT, MPI_MAX, comm);
    budget.show_progress(round);
    const bool more = std::find(need.begin(), need.begin() + static_cast<std::ptrdiff_t>(count), 1) !=
                      need.begin() + static_cast<std::ptrdiff_t>(count);
    if (!more || need[count] == 1) break;
  }

  // Every leader's fit and medians, summed into rank 0 (zeros elsewhere).
  const std::size_t stride = 4 + result.sizes.size();
  std::vector<double> fits(stride * count, 0.0);
  for (std::size_t p = 0; p < count; ++p) {
    if (rank != pairs[p].first) continue;
    double* f = &fits[stride * p];
    const LinearCost c = fit_linear_cost(result.sizes, one_way[p]);
    f[0] = c.overhead_s;
    f[1] = c.s_per_byte;
    f[2] = c.overhead_ci95;
    f[3] = c.s_per_byte_ci95;
    for (std::size_t i = 0; i < result.sizes.size(); ++i) f[4 + i] = one_way[p][i].median();
  }
  std::vector<double> summed(rank == 0 ? fits.size() : 0);
  MPI_Reduce(fits.data(), summed.data(), static_cast<int>(fits.size()), MPI_DOUBLE, MPI_SUM, 0, comm);
  result.send_overhead = merge_on_root(send_overhead, rank, size, comm);
  result.recv_overhead = merge_on_root(recv_overhead, rank, size, comm);
  result.segment = merge_on_root(segment, rank, size, comm);
  if (rank == 0) {
    for (std::size_t p = 0; p < count; ++p) {
      const double* f = &summed[stride * p];
      result.pairs.push_back({pairs[p].first, pairs[p].second, {f[0], f[1], f[2], f[3]}, {f + 4, f + stride}});
    }
  }
  return result;
}

}  // namespace mheta::microbench
