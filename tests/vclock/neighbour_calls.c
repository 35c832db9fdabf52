/* Neighbourhood collectives under the virtual clock (docs/emulation.md,
 * "Collectives"), one mode each:
 *
 *   neighbour_calls cart   MPI_Neighbor_alltoall on a non-periodic 1-D
 *                          Cartesian line (no neighbour past either end)
 *   neighbour_calls icart  the same with MPI_Ineighbor_alltoall + MPI_Wait
 *   neighbour_calls pcart  the same with MPI-4's MPI_Neighbor_alltoall_init,
 *                          MPI_Start + MPI_Wait
 *   neighbour_calls graph  MPI_Neighbor_allgather on a weighted distributed
 *                          graph: a directed ring, each rank to the next
 *
 * followed by the second and third arguments: the emulated network's
 * latency L (s) and bandwidth B (bytes/s). Rank 0 computes 100 ms before the
 * collective, the others nothing; every block is kBlockBytes. A rank's
 * blocks leave one after another on its link, in its destinations' order
 * (for the line: the rank below, then the rank above), each arriving L +
 * n/B after it started out; a rank leaves once its own blocks have left
 * and its sources' have arrived. So rank 0's neighbours wait for it, and
 * a rank that is not its neighbour (rank 3 of 4 on the line) leaves before
 * rank 0 even entered. On stderr, rank 0 prints for each rank its exit
 * after the latest entry among itself and its sources, and its value by
 * that arithmetic (expected_...); for each rank that is not a neighbour of
 * rank 0, whether it left before rank 0 entered.
 *
 * After the timed call, every mode runs each form once more on a periodic
 * ring (blocking, non-blocking, persistent, large-count) and a
 * neighbourhood collective on a communicator without a topology, whose
 * error the program gets (MPI_ERRORS_RETURN); the results go to stdout,
 * the same with and without the interposer. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/common/cpu_work.h"

enum { kBlockInts = 25000, kBlockBytes = kBlockInts * (int)sizeof(int), kMaxRanks = 64, kRingInts = 4 };

/* Unsigned: the sum wraps around instead of overflowing. */
static unsigned long checksum(const int* values, int n) {
  unsigned long sum = 0;
  for (int i = 0; i < n; ++i) sum = sum * 31 + (unsigned long)values[i];
  return sum;
}

/* The destinations of rank r, in MPI's order; -1 for MPI_PROC_NULL. */
static int destinations(int graph, int r, int size, int out[2]) {
  if (graph) {
    out[0] = (r + 1) % size;
    return 1;
  }
  out[0] = r > 0 ? r - 1 : -1;
  out[1] = r + 1 < size ? r + 1 : -1;
  return 2;
}

/* Each rank's exit by the arithmetic of the header, from the entries. */
static void expected_exits(int graph, int size, const double* entry, double L, double B, double* exit,
                           double* base) {
  double arrival[kMaxRanks];
  for (int r = 0; r < size; ++r) {
    arrival[r] = 0;
    base[r] = entry[r];
  }
  for (int r = 0; r < size; ++r) {
    int dest[2];
    const int n = destinations(graph, r, size, dest);
    double out = entry[r];
    exit[r] = entry[r];
    for (int j = 0; j < n; ++j) {
      if (dest[j] < 0) continue;
      const double starts = out;
      out = starts + kBlockBytes / B;
      if (starts + L + kBlockBytes / B > arrival[dest[j]]) arrival[dest[j]] = starts + L + kBlockBytes / B;
      if (entry[r] > base[dest[j]]) base[dest[j]] = entry[r];
    }
    exit[r] = out;
  }
  for (int r = 0; r < size; ++r) {
    if (arrival[r] > exit[r]) exit[r] = arrival[r];
  }
}

/* The timed collective of `mode` on `comm`. */
static void timed_call(const char* mode, MPI_Comm comm, const int* out, int* in) {
  MPI_Request request;
  if (strcmp(mode, "cart") == 0) {
    MPI_Neighbor_alltoall(out, kBlockInts, MPI_INT, in, kBlockInts, MPI_INT, comm);
  } else if (strcmp(mode, "icart") == 0) {
    MPI_Ineighbor_alltoall(out, kBlockInts, MPI_INT, in, kBlockInts, MPI_INT, comm, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else if (strcmp(mode, "pcart") == 0) {
#if MPI_VERSION >= 4
    MPI_Neighbor_alltoall_init(out, kBlockInts, MPI_INT, in, kBlockInts, MPI_INT, comm, MPI_INFO_NULL, &request);
    MPI_Start(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Request_free(&request);
#else
    MPI_Neighbor_alltoall(out, kBlockInts, MPI_INT, in, kBlockInts, MPI_INT, comm);
#endif
  } else {
    MPI_Neighbor_allgather(out, kBlockInts, MPI_INT, in, kBlockInts, MPI_INT, comm);
  }
}

static MPI_Comm topology(int graph, int rank, int size) {
  MPI_Comm comm;
  if (graph) {
    const int source = (rank + size - 1) % size;
    const int dest = (rank + 1) % size;
    const int weight = 1;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &source, &weight, 1, &dest, &weight, MPI_INFO_NULL, 0, &comm);
  } else {
    const int periodic = 0;
    MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &comm);
  }
  return comm;
}

static void timed(const char* mode, int rank, int size, double L, double B) {
  const int graph = strcmp(mode, "graph") == 0;
  MPI_Comm comm = topology(graph, rank, size);
  int* out = malloc(2 * kBlockBytes);
  int* in = malloc(2 * kBlockBytes);
  for (int i = 0; i < 2 * kBlockInts; ++i) {
    out[i] = 1000 * rank + i % 1000;
    in[i] = -1;
  }
  if (rank == 0) compute_for(0.1);
  const double times[2] = {MPI_Wtime(), 0};
  timed_call(mode, comm, out, in);
  double mine[2] = {times[0], MPI_Wtime()};
  double all[2 * kMaxRanks];
  MPI_Gather(mine, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  /* A source's block fills its slot; a slot past a non-periodic end stays -1. */
  unsigned long sum = checksum(in, 2 * kBlockInts), total = 0;
  MPI_Reduce(&sum, &total, 1, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("%s: received checksum %lu\n", mode, total);
    double entry[kMaxRanks], exit[kMaxRanks], expected[kMaxRanks], base[kMaxRanks];
    for (int r = 0; r < size; ++r) {
      entry[r] = all[2 * r];
      exit[r] = all[2 * r + 1];
    }
    expected_exits(graph, size, entry, L, B, expected, base);
    for (int r = 0; r < size; ++r) {
      fprintf(stderr, "r%d_exit_s=%.9f expected_r%d_exit_s=%.9f\n", r, exit[r] - base[r], r, expected[r] - base[r]);
      int dest[2];
      const int n = destinations(graph, 0, size, dest);
      int neighbour = r == 0;
      for (int j = 0; j < n; ++j) neighbour = neighbour || dest[j] == r;
      if (!neighbour) {
        fprintf(stderr, "r%d_left_before_r0_entered=%d expected_r%d_left_before_r0_entered=1\n", r,
                exit[r] < entry[0], r);
      }
    }
  }
  free(out);
  free(in);
  MPI_Comm_free(&comm);
}

/* Every form once on a periodic ring: each rank's two neighbours send it
 * kRingInts ints each. */
static unsigned long forms(int rank, int size) {
  const int periodic = 1;
  MPI_Comm ring;
  MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &ring);
  int out[2 * kRingInts], in[2 * kRingInts];
  for (int i = 0; i < 2 * kRingInts; ++i) out[i] = 100 * rank + i;
  MPI_Neighbor_alltoall(out, kRingInts, MPI_INT, in, kRingInts, MPI_INT, ring);
  unsigned long sum = checksum(in, 2 * kRingInts);
  MPI_Request request;
  MPI_Ineighbor_allgather(out, kRingInts, MPI_INT, in, kRingInts, MPI_INT, ring, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  sum = sum * 7 + checksum(in, 2 * kRingInts);
  const int counts[2] = {kRingInts, kRingInts}, displs[2] = {0, kRingInts};
  MPI_Neighbor_allgatherv(out, kRingInts, MPI_INT, in, counts, displs, MPI_INT, ring);
  sum = sum * 7 + checksum(in, 2 * kRingInts);
  const MPI_Aint byte_displs[2] = {0, kRingInts * (MPI_Aint)sizeof(int)};
  const MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  MPI_Ineighbor_alltoallw(out, counts, byte_displs, types, in, counts, byte_displs, types, ring, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  sum = sum * 7 + checksum(in, 2 * kRingInts);
#if MPI_VERSION >= 4
  MPI_Neighbor_allgather_init(out, kRingInts, MPI_INT, in, kRingInts, MPI_INT, ring, MPI_INFO_NULL, &request);
  for (int round = 0; round < 2; ++round) {
    out[0] = round;
    MPI_Start(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    sum = sum * 7 + checksum(in, 2 * kRingInts);
  }
  MPI_Request_free(&request);
  const MPI_Count wide[2] = {kRingInts, kRingInts};
  const MPI_Aint wide_displs[2] = {0, kRingInts};
  MPI_Neighbor_alltoallv_c(out, wide, wide_displs, MPI_INT, in, wide, wide_displs, MPI_INT, ring);
  sum = sum * 7 + checksum(in, 2 * kRingInts);
#endif
  MPI_Comm_free(&ring);
  return sum;
}

/* A neighbourhood collective on a communicator without a topology is MPI's
 * error, the same with the interposer. */
static int without_topology(void) {
  MPI_Comm plain;
  MPI_Comm_dup(MPI_COMM_WORLD, &plain);
  MPI_Comm_set_errhandler(plain, MPI_ERRORS_RETURN);
  int out = 1, in = 0;
  const int rc = MPI_Neighbor_alltoall(&out, 1, MPI_INT, &in, 1, MPI_INT, plain);
  int error_class = MPI_SUCCESS;
  MPI_Error_class(rc, &error_class);
  MPI_Comm_free(&plain);
  return error_class;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* mode = argc > 1 ? argv[1] : "";
  const int known = strcmp(mode, "cart") == 0 || strcmp(mode, "icart") == 0 || strcmp(mode, "pcart") == 0 ||
                    strcmp(mode, "graph") == 0;
  if (argc != 4 || !known || size < 2 || size > kMaxRanks) {
    if (rank == 0) fprintf(stderr, "usage: neighbour_calls cart|icart|pcart|graph LATENCY_S BANDWIDTH_BPS (2-64 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  timed(mode, rank, size, atof(argv[2]), atof(argv[3]));
  const unsigned long ring = forms(rank, size);
  unsigned long total = 0;
  MPI_Reduce(&ring, &total, 1, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  const int error_class = without_topology();
  if (rank == 0) printf("forms on a periodic ring: checksum %lu; without a topology: error class %d\n", total, error_class);
  fflush(stdout);
  MPI_Finalize();
  return 0;
}
