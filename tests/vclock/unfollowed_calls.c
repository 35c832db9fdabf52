/* Calls the virtual clock does not follow (docs/emulation.md, "Still not
 * followed"), run under it: the neighbourhood collectives of a periodic
 * ring (blocking, non-blocking, persistent and large-count), one-sided
 * puts between fences, and split collective MPI-IO. Rank 0 prints the
 * results (the same with and without the interposer) and, on stderr,
 * neighbor_wait_s: the time its clock moved in an MPI_Neighbor_alltoall
 * that it entered 30 ms of compute before rank 1 (it waited for rank 1
 * there; a wait is no compute). Usage: unfollowed_calls DIRECTORY */
#include <mpi.h>
#include <stdio.h>

#include "tests/common/cpu_work.h"

enum { kCount = 4 };

static unsigned long checksum(const int* values, int n) {
  unsigned long sum = 0;
  for (int i = 0; i < n; ++i) sum = sum * 31 + (unsigned long)values[i];
  return sum;
}

/* Each rank's two ring neighbours send it kCount ints each. */
static unsigned long neighbourhood(MPI_Comm ring, int rank, double* wait) {
  int out[2 * kCount], in[2 * kCount];
  for (int i = 0; i < 2 * kCount; ++i) out[i] = 100 * rank + i;
  if (rank == 1) compute_for(0.03);
  const double entered = MPI_Wtime();
  MPI_Neighbor_alltoall(out, kCount, MPI_INT, in, kCount, MPI_INT, ring);
  *wait = MPI_Wtime() - entered;
  unsigned long sum = checksum(in, 2 * kCount);
  MPI_Request request;
  MPI_Ineighbor_allgather(out, kCount, MPI_INT, in, kCount, MPI_INT, ring, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  sum = sum * 7 + checksum(in, 2 * kCount);
#if MPI_VERSION >= 4
  MPI_Neighbor_allgather_init(out, kCount, MPI_INT, in, kCount, MPI_INT, ring, MPI_INFO_NULL, &request);
  MPI_Start(&request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Request_free(&request);
  sum = sum * 7 + checksum(in, 2 * kCount);
  const MPI_Count counts[2] = {kCount, kCount};
  const MPI_Aint displs[2] = {0, kCount};
  MPI_Neighbor_alltoallv_c(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT, ring);
  sum = sum * 7 + checksum(in, 2 * kCount);
#endif
  return sum;
}

/* Every rank puts its rank into its right neighbour's window. */
static int one_sided(int rank, int size) {
  int slot = -1;
  MPI_Win win;
  MPI_Win_create(&slot, sizeof slot, sizeof slot, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Put(&rank, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  return slot;
}

/* Each rank writes its block with a split collective write, reads the
 * file back whole with a split collective read. */
static unsigned long split_io(const char* dir, int rank, int size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/unfollowed_calls.bin", dir);
  MPI_File fh;
  MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  int block[kCount], all[64 * kCount];
  for (int i = 0; i < kCount; ++i) block[i] = 10 * rank + i;
  MPI_File_write_at_all_begin(fh, (MPI_Offset)(rank * sizeof block), block, kCount, MPI_INT);
  MPI_File_write_at_all_end(fh, block, MPI_STATUS_IGNORE);
  MPI_File_sync(fh);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_File_sync(fh);
  MPI_Status status;
  MPI_File_read_at_all_begin(fh, 0, all, size * kCount, MPI_INT);
  MPI_File_read_at_all_end(fh, all, &status);
  int read = 0;
  MPI_Get_count(&status, MPI_INT, &read);
  MPI_File_close(&fh);
  return checksum(all, read) * 3 + (unsigned long)read;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 2 || size < 2 || size > 64) {
    if (rank == 0) fprintf(stderr, "usage: unfollowed_calls DIRECTORY (2 to 64 ranks)\n");
    MPI_Finalize();
    return 2;
  }
  const int periodic = 1;
  MPI_Comm ring;
  MPI_Cart_create(MPI_COMM_WORLD, 1, &size, &periodic, 0, &ring);
  double wait = 0;
  const unsigned long neighbours = neighbourhood(ring, rank, &wait);
  MPI_Comm_free(&ring);
  const int put = one_sided(rank, size);
  const unsigned long io = split_io(argv[1], rank, size);
  unsigned long mine[3] = {neighbours, (unsigned long)put, io}, all[3] = {0, 0, 0};
  MPI_Reduce(mine, all, 3, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("neighbourhood %lu put %lu split_io %lu\n", all[0], all[1], all[2]);
    fprintf(stderr, "neighbor_wait_s=%.9f\n", wait);
  }
  MPI_Finalize();
  return 0;
}
