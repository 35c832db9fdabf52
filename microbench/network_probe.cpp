#include "microbench/network_probe.hpp"

#include <algorithm>
#include <utility>

#include "microbench/quiet_wait.hpp"
#include "microbench/timing_batch.hpp"

namespace mheta::microbench {

namespace {

constexpr int kTag = 7001;
constexpr int kSmall = 8;  // bytes of the overhead messages (eager protocol)

class PairMeasurer {
 public:
  PairMeasurer(MPI_Comm comm, const std::vector<std::int64_t>& sizes)
      : comm_(comm), sizes_(sizes), buffer_(static_cast<std::size_t>(sizes.back())) {}

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
  void bounce(bool lead, int peer, int bytes) {
    if (lead) {
      MPI_Send(buffer_.data(), bytes, MPI_BYTE, peer, kTag, comm_);
      MPI_Recv(buffer_.data(), bytes, MPI_BYTE, peer, kTag, comm_, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buffer_.data(), bytes, MPI_BYTE, peer, kTag, comm_, MPI_STATUS_IGNORE);
      MPI_Send(buffer_.data(), bytes, MPI_BYTE, peer, kTag, comm_);
    }
  }

  MPI_Comm comm_;
  const std::vector<std::int64_t>& sizes_;
  std::vector<char> buffer_;
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
  PairMeasurer measurer(comm, result.sizes);
  // need[p]: pair p wants more samples; need[count]: rank 0 ran out of time.
  std::vector<int> need(count + 1, 1);
  std::vector<int> local(count + 1, 0);
  for (int round = 1;; ++round) {
    for (std::size_t p = 0; p < count; ++p) {
      if (need[p] == 0) continue;
      const auto [i, j] = pairs[p];
      if (rank == i || rank == j) measurer.measure(rank, rank == i ? j : i, one_way[p], send_overhead, recv_overhead);
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
  if (rank == 0) {
    for (std::size_t p = 0; p < count; ++p) {
      const double* f = &summed[stride * p];
      result.pairs.push_back({pairs[p].first, pairs[p].second, {f[0], f[1], f[2], f[3]}, {f + 4, f + stride}});
    }
  }
  return result;
}

}  // namespace mheta::microbench
