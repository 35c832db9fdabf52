#include "microbench/clock_offset.hpp"

#include <limits>

namespace mheta::microbench {

double clock_offset_from_root(MPI_Comm comm, int exchanges) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  constexpr int kTag = 7301;
  double offset = 0;
  for (int peer = 1; peer < size; ++peer) {
    if (rank == 0) {
      double best_round_trip = std::numeric_limits<double>::infinity();
      double best_offset = 0;
      for (int i = 0; i < exchanges; ++i) {
        const double sent = MPI_Wtime();
        MPI_Send(&sent, 1, MPI_DOUBLE, peer, kTag, comm);
        double remote = 0;
        MPI_Recv(&remote, 1, MPI_DOUBLE, peer, kTag, comm, MPI_STATUS_IGNORE);
        const double received = MPI_Wtime();
        if (received - sent < best_round_trip) {
          best_round_trip = received - sent;
          best_offset = remote - (sent + received) / 2;
        }
      }
      MPI_Send(&best_offset, 1, MPI_DOUBLE, peer, kTag, comm);
    } else if (rank == peer) {
      for (int i = 0; i < exchanges; ++i) {
        double sent = 0;
        MPI_Recv(&sent, 1, MPI_DOUBLE, 0, kTag, comm, MPI_STATUS_IGNORE);
        const double now = MPI_Wtime();
        MPI_Send(&now, 1, MPI_DOUBLE, 0, kTag, comm);
      }
      MPI_Recv(&offset, 1, MPI_DOUBLE, 0, kTag, comm, MPI_STATUS_IGNORE);
    }
  }
  return offset;
}

}  // namespace mheta::microbench
