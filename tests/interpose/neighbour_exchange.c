/* Neighbourhood collectives and split collective MPI-IO in one loop, for the
 * capture to record as the messages and I/O they are (docs/interpose.md,
 * "What is recorded"). Each iteration, on an even number P >= 4 of ranks:
 *   - line: MPI_Neighbor_alltoall of 100 ints on a non-periodic 1-D
 *     Cartesian communicator (MPI_PROC_NULL below rank 0 and above rank
 *     P-1);
 *   - torus: MPI_Ineighbor_alltoallv on a periodic 2 x P/2 Cartesian
 *     communicator, overlapped with compute, then MPI_Wait; at 4 ranks each
 *     neighbour is both the one below and the one above in both dimensions.
 *     The blocks of dimension d are 8 (2d + 1) doubles, both ways (MPICH
 *     4.0 delivers two blocks to a repeated neighbour in the order sent,
 *     not as MPI defines, the block sent up arriving as the one from below:
 *     blocks of unequal sizes would be received wrongly there);
 *   - graph: MPI_Neighbor_alltoallv on MPI_Dist_graph_create_adjacent, rank
 *     r sending 10 (r + 1) ints to r + 1 and 20 (r + 1) to r + 2 (mod P);
 *   - persistent: MPI_Neighbor_allgather_init of 3 doubles on the line,
 *     MPI_Start, compute, MPI_Wait (MPI-4);
 *   - self: MPI_Neighbor_allgather of 2 ints on a 1 x P Cartesian
 *     communicator, periodic in its dimension of one rank (each rank is
 *     both its neighbours there: blocks to itself) and not in the other;
 *   - file: the rank's block of 4096 doubles written with
 *     MPI_File_write_at_all_begin/_end, the next rank's read back with
 *     MPI_File_read_at_all_begin/_end.
 * No other MPI call in the loop. Prints a checksum of everything received,
 * which must not change under the interposer.
 * Usage: neighbour_exchange FILE [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/common/cpu_work.h"

enum { LINE_BLOCK = 100, GATHER_BLOCK = 3, FILE_BLOCK = 4096 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 2 || size < 4 || size % 2 != 0) {
    if (rank == 0) fprintf(stderr, "usage: neighbour_exchange FILE [iterations], on an even number of ranks >= 4\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int iterations = argc > 2 ? atoi(argv[2]) : 40;

  MPI_Comm line, torus, graph, self;
  int line_dims[1] = {size}, line_periods[1] = {0};
  MPI_Cart_create(MPI_COMM_WORLD, 1, line_dims, line_periods, 0, &line);
  int torus_dims[2] = {2, size / 2}, torus_periods[2] = {1, 1};
  MPI_Cart_create(MPI_COMM_WORLD, 2, torus_dims, torus_periods, 0, &torus);
  int self_dims[2] = {1, size}, self_periods[2] = {1, 0};
  MPI_Cart_create(MPI_COMM_WORLD, 2, self_dims, self_periods, 0, &self);
  int destinations[2] = {(rank + 1) % size, (rank + 2) % size};
  int sources[2] = {(rank + size - 1) % size, (rank + size - 2) % size};
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, MPI_UNWEIGHTED, 2, destinations, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &graph);

  int line_out[2 * LINE_BLOCK], line_in[2 * LINE_BLOCK];
  /* Torus: blocks down, up of dimension 0, then of dimension 1. */
  int torus_send_counts[4], torus_recv_counts[4], torus_sdispls[4], torus_rdispls[4];
  for (int j = 0; j < 4; ++j) {
    torus_send_counts[j] = 8 * (j / 2 * 2 + 1);
    torus_recv_counts[j] = torus_send_counts[j];
    torus_sdispls[j] = j == 0 ? 0 : torus_sdispls[j - 1] + torus_send_counts[j - 1];
    torus_rdispls[j] = j == 0 ? 0 : torus_rdispls[j - 1] + torus_recv_counts[j - 1];
  }
  double torus_out[64], torus_in[64];
  int graph_send_counts[2] = {10 * (rank + 1), 20 * (rank + 1)};
  int graph_recv_counts[2] = {10 * (sources[0] + 1), 20 * (sources[1] + 1)};
  int graph_sdispls[2] = {0, graph_send_counts[0]};
  int graph_rdispls[2] = {0, graph_recv_counts[0]};
  int* graph_out = malloc(sizeof(int) * (size_t)(graph_send_counts[0] + graph_send_counts[1]));
  int* graph_in = malloc(sizeof(int) * (size_t)(graph_recv_counts[0] + graph_recv_counts[1]));
  double gather_out[GATHER_BLOCK], gather_in[2 * GATHER_BLOCK] = {0};
  int self_out[2], self_in[8] = {0};
#if MPI_VERSION >= 4
  MPI_Request gather;
  MPI_Neighbor_allgather_init(gather_out, GATHER_BLOCK, MPI_DOUBLE, gather_in, GATHER_BLOCK, MPI_DOUBLE, line,
                              MPI_INFO_NULL, &gather);
#endif
  MPI_File file;
  MPI_File_open(MPI_COMM_WORLD, argv[1], MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL,
                &file);
  double* block = malloc(sizeof(double) * FILE_BLOCK);
  double* next_block = malloc(sizeof(double) * FILE_BLOCK);
  const MPI_Offset mine = (MPI_Offset)rank * FILE_BLOCK * (MPI_Offset)sizeof(double);
  const MPI_Offset next = (MPI_Offset)((rank + 1) % size) * FILE_BLOCK * (MPI_Offset)sizeof(double);

  double checksum = 0;
  for (int it = 0; it < iterations; ++it) {
    for (int i = 0; i < 2 * LINE_BLOCK; ++i) line_out[i] = rank * 1000 + it + i;
    MPI_Neighbor_alltoall(line_out, LINE_BLOCK, MPI_INT, line_in, LINE_BLOCK, MPI_INT, line);
    if (rank > 0) checksum += line_in[0];
    if (rank + 1 < size) checksum += 0.5 * line_in[2 * LINE_BLOCK - 1];

    for (int i = 0; i < 64; ++i) torus_out[i] = rank + 0.01 * i + it;
    MPI_Request exchange;
    MPI_Ineighbor_alltoallv(torus_out, torus_send_counts, torus_sdispls, MPI_DOUBLE, torus_in, torus_recv_counts,
                            torus_rdispls, MPI_DOUBLE, torus, &exchange);
    compute_for(300e-6);
    MPI_Wait(&exchange, MPI_STATUS_IGNORE);
    for (int j = 0; j < 4; ++j) checksum += (j + 1) * torus_in[torus_rdispls[j] + torus_recv_counts[j] - 1];

    for (int i = 0; i < graph_send_counts[0] + graph_send_counts[1]; ++i) graph_out[i] = rank + i + it;
    MPI_Neighbor_alltoallv(graph_out, graph_send_counts, graph_sdispls, MPI_INT, graph_in, graph_recv_counts,
                           graph_rdispls, MPI_INT, graph);
    checksum += graph_in[graph_rdispls[1] + graph_recv_counts[1] - 1] - 0.25 * graph_in[0];

#if MPI_VERSION >= 4
    for (int i = 0; i < GATHER_BLOCK; ++i) gather_out[i] = rank + it + i;
    MPI_Start(&gather);
    compute_for(200e-6);
    MPI_Wait(&gather, MPI_STATUS_IGNORE);
    checksum += gather_in[0] + 2 * gather_in[2 * GATHER_BLOCK - 1];
#endif

    self_out[0] = rank;
    self_out[1] = it;
    MPI_Neighbor_allgather(self_out, 2, MPI_INT, self_in, 2, MPI_INT, self);
    for (int i = 0; i < 8; ++i) checksum += (i + 1) * self_in[i];

    for (int i = 0; i < FILE_BLOCK; ++i) block[i] = rank + it + 1e-3 * i;
    MPI_File_write_at_all_begin(file, mine, block, FILE_BLOCK, MPI_DOUBLE);
    MPI_File_write_at_all_end(file, block, MPI_STATUS_IGNORE);
    MPI_File_read_at_all_begin(file, next, next_block, FILE_BLOCK, MPI_DOUBLE);
    MPI_File_read_at_all_end(file, next_block, MPI_STATUS_IGNORE);
    checksum += next_block[FILE_BLOCK - 1];
    compute_for(200e-6);
  }

  MPI_File_close(&file);
#if MPI_VERSION >= 4
  MPI_Request_free(&gather);
#endif
  double total = 0;
  MPI_Reduce(&checksum, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("checksum %.10e\n", total);
  free(block);
  free(next_block);
  free(graph_out);
  free(graph_in);
  MPI_Comm_free(&graph);
  MPI_Comm_free(&self);
  MPI_Comm_free(&torus);
  MPI_Comm_free(&line);
  MPI_Finalize();
  return 0;
}
