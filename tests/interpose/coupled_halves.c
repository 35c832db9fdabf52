/* Two coupled codes in one job (an ocean and an atmosphere): MPI_COMM_WORLD
 * split into two halves by rank parity, each half a ring of its own with a
 * reduction, and the halves coupled through an intercommunicator every
 * step: each rank swaps a flux (MPI_Sendrecv) and a boundary block
 * (MPI_Isend/MPI_Irecv, MPI_Waitall) with the rank of the same number in
 * the other half, and every 10th step an MPI_Allreduce on the
 * intercommunicator. The second half computes twice as long. A point-to-point
 * peer of an intercommunicator is a rank of the remote group: the capture
 * must record these messages with the world rank they reach. Prints a
 * checksum that must not change under the interposer.
 * Usage: coupled_halves [iterations] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/common/cpu_work.h"

#define BLOCK 4096
#define FLUX 5  /* the tags of the coupling */
#define BOUNDARY 6

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int world_rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  const int steps = argc > 1 ? atoi(argv[1]) : 60;
  const int color = world_rank % 2;
  MPI_Comm half, coupling;
  MPI_Comm_split(MPI_COMM_WORLD, color, world_rank, &half);
  /* The other half's leader is world rank 1 - color. */
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 77, &coupling);
  int rank, size;
  MPI_Comm_rank(half, &rank);
  MPI_Comm_size(half, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  static double out[BLOCK], in[BLOCK];
  double state = world_rank + 1, sum = 0;
  for (int s = 0; s < steps; ++s) {
    compute_for(color == 0 ? 2e-4 : 4e-4);
    state = 0.5 * state + 1e-3 * s;
    double halo = 0;
    MPI_Sendrecv(&state, 1, MPI_DOUBLE, right, 1, &halo, 1, MPI_DOUBLE, left, 1, half, MPI_STATUS_IGNORE);
    double flux = state + 1e-2 * halo, other = 0;
    MPI_Sendrecv(&flux, 1, MPI_DOUBLE, rank, FLUX, &other, 1, MPI_DOUBLE, rank, FLUX, coupling, MPI_STATUS_IGNORE);
    for (int i = 0; i < BLOCK; ++i) out[i] = flux + 1e-6 * i;
    MPI_Request requests[2];
    MPI_Irecv(in, BLOCK, MPI_DOUBLE, rank, BOUNDARY, coupling, &requests[0]);
    MPI_Isend(out, BLOCK, MPI_DOUBLE, rank, BOUNDARY, coupling, &requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
    double norm = other + in[s % BLOCK], across = 0;
    MPI_Allreduce(MPI_IN_PLACE, &norm, 1, MPI_DOUBLE, MPI_SUM, half);
    /* Every 10th step the other half's sum, by a collective on the
     * intercommunicator (not recorded: the interposer says so once). */
    if (s % 10 == 0) MPI_Allreduce(&norm, &across, 1, MPI_DOUBLE, MPI_SUM, coupling);
    sum += norm + 1e-3 * across;
  }
  double all = 0;
  MPI_Reduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  if (world_rank == 0) printf("result coupled %.12e\n", all);
  MPI_Comm_free(&coupling);
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
