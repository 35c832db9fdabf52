#include "interpose/network_probe.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "interpose/sleep_wait.hpp"

namespace mheta::interpose {

namespace {

constexpr int kSmallRounds = 50;
constexpr int kLargeRounds = 5;
constexpr int kLargeBytes = 1 << 20;
constexpr int kTag = 1;

// The fastest round trip of `bytes` between ranks 0 and 1 (rank 1 echoes):
// the network's, without the waits for a core of a shared machine.
double round_trip(MPI_Comm comm, int rank, std::vector<char>& buffer, int bytes, int rounds) {
  std::vector<double> times;
  for (int i = 0; i < rounds; ++i) {
    if (rank == 0) {
      const double start = PMPI_Wtime();
      PMPI_Send(buffer.data(), bytes, MPI_BYTE, 1, kTag, comm);
      PMPI_Recv(buffer.data(), bytes, MPI_BYTE, 1, kTag, comm, MPI_STATUS_IGNORE);
      times.push_back(PMPI_Wtime() - start);
    } else {
      PMPI_Recv(buffer.data(), bytes, MPI_BYTE, 0, kTag, comm, MPI_STATUS_IGNORE);
      PMPI_Send(buffer.data(), bytes, MPI_BYTE, 0, kTag, comm);
    }
  }
  return rank == 0 ? *std::min_element(times.begin(), times.end()) : 0;
}

}  // namespace

Link measure_network(MPI_Comm comm) {
  int rank = 0;
  int size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  double measured[2] = {0, std::numeric_limits<double>::infinity()};
  if (size < 2) return Link{.latency_s = measured[0], .bandwidth_Bps = measured[1]};
  if (rank < 2) {
    std::vector<char> buffer(kLargeBytes);
    round_trip(comm, rank, buffer, 8, 3);  // warm-up: connections, buffers
    const double small = round_trip(comm, rank, buffer, 8, kSmallRounds);
    const double large = round_trip(comm, rank, buffer, kLargeBytes, kLargeRounds);
    if (rank == 0) {
      measured[0] = small / 2;
      const double transfer = large / 2 - measured[0];
      if (transfer > 0) measured[1] = kLargeBytes / transfer;
    }
  }
  // The other ranks wait without spinning: with more ranks than cores a
  // spinning rank would take the core a measuring rank needs.
  MPI_Request request = MPI_REQUEST_NULL;
  PMPI_Ibcast(measured, 2, MPI_DOUBLE, 0, comm, &request);
  poll_with_sleeps([&](int* done) { return PMPI_Test(&request, done, MPI_STATUS_IGNORE); });
  return Link{.latency_s = measured[0], .bandwidth_Bps = measured[1]};
}

}  // namespace mheta::interpose
