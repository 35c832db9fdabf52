/* Dynamic processes under the interposer (docs/emulation.md, "Falls back,
 * and says so"): the program spawns one process of itself, exchanges a
 * message with it, merges the two groups and reduces over them; then every
 * rank meets in an allreduce of MPI_COMM_WORLD. Errors are returned, not
 * fatal: an MPI without dynamic processes (MPICH's ch4:ucx says "Error in
 * spawn call") makes the program print that instead, the same with and
 * without the interposer. Rank 0 prints the result lines.
 * Usage: dynamic_processes (the spawned process: dynamic_processes child) */
#include <mpi.h>
#include <stdio.h>

enum { kCount = 8 };

/* The spawned process: doubles what the parent's rank 0 sends, and joins
 * the merged communicator's reduction. */
static void child(MPI_Comm parent) {
  int data[kCount];
  MPI_Recv(data, kCount, MPI_INT, 0, 1, parent, MPI_STATUS_IGNORE);
  for (int i = 0; i < kCount; ++i) data[i] *= 2;
  MPI_Send(data, kCount, MPI_INT, 0, 2, parent);
  MPI_Comm merged;
  MPI_Intercomm_merge(parent, 1, &merged);
  int rank = 0, sum = 0;
  MPI_Comm_rank(merged, &rank);
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, merged);
  MPI_Comm_free(&merged);
  MPI_Comm_disconnect(&parent);
}

static void parent(const char* self, int rank) {
  char child_mode[] = "child";
  char* args[] = {child_mode, NULL};
  MPI_Comm inter = MPI_COMM_NULL;
  const int rc = MPI_Comm_spawn(self, args, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, MPI_ERRCODES_IGNORE);
  if (rc != MPI_SUCCESS) {
    int error_class = 0;
    MPI_Error_class(rc, &error_class);
    if (rank == 0) printf("spawn: not supported by this MPI (error class %d)\n", error_class);
    return;
  }
  int data[kCount];
  for (int i = 0; i < kCount; ++i) data[i] = i + 1;
  long answer = 0;
  if (rank == 0) {
    MPI_Send(data, kCount, MPI_INT, 0, 1, inter);
    MPI_Recv(data, kCount, MPI_INT, 0, 2, inter, MPI_STATUS_IGNORE);
    for (int i = 0; i < kCount; ++i) answer = answer * 31 + data[i];
  }
  MPI_Comm merged;
  MPI_Intercomm_merge(inter, 0, &merged);
  int merged_rank = 0, merged_size = 0, sum = 0;
  MPI_Comm_rank(merged, &merged_rank);
  MPI_Comm_size(merged, &merged_size);
  MPI_Allreduce(&merged_rank, &sum, 1, MPI_INT, MPI_SUM, merged);
  if (rank == 0) printf("spawn: answer %ld, %d processes merged, rank sum %d\n", answer, merged_size, sum);
  MPI_Comm_free(&merged);
  MPI_Comm_disconnect(&inter);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm spawned_by = MPI_COMM_NULL;
  MPI_Comm_get_parent(&spawned_by);
  if (spawned_by != MPI_COMM_NULL) {
    child(spawned_by);
  } else {
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    parent(argv[0], rank);
    int one = 1, ranks = 0;
    MPI_Allreduce(&one, &ranks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("world: %d ranks of %d met\n", ranks, size);
  }
  fflush(stdout);
  MPI_Finalize();
  return 0;
}
